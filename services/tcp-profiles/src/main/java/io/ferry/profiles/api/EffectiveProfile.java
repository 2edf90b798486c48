package io.ferry.profiles.api;

import java.util.List;
import java.util.Map;

public record EffectiveProfile(String host, String site, String profile, int version, List<String> chain,
                               String rule, int rulePriority, Map<String, String> sysctls,
                               Map<String, Integer> interfaceSettings, List<String> warnings) {
}
