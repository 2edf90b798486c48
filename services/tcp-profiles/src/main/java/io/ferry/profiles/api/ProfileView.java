package io.ferry.profiles.api;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.time.OffsetDateTime;
import java.util.Map;

/** One version of a profile, with who changed what. */
public record ProfileView(String name, String site, int version, int currentVersion, String summary, String include,
                          Map<String, String> sysctls, @JsonProperty("interface") Map<String, Integer> interfaceSettings,
                          Map<String, Map<String, String>> diff, String comment, OffsetDateTime createdAt,
                          String createdBy) {
}
