package io.ferry.profiles.api;

import java.util.List;
import java.util.Map;

/** A profile's settings after its includes are applied, with the chain of profiles they came from. */
public record Effective(String name, int version, List<String> chain, Map<String, String> sysctls,
                        Map<String, Integer> interfaceSettings) {
}
