package io.ferry.profiles.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.time.OffsetDateTime;
import java.util.Map;

/** One version of a profile, with who changed what. */
public record ProfileView(String name, @Schema(nullable = true) String site, int version, int currentVersion,
                          @Schema(nullable = true) String summary, @Schema(nullable = true) String include,
                          Map<String, String> sysctls, @JsonProperty("interface") Map<String, Integer> interfaceSettings,
                          Map<String, Map<String, String>> diff, @Schema(nullable = true) String comment,
                          OffsetDateTime createdAt, String createdBy) {
}
