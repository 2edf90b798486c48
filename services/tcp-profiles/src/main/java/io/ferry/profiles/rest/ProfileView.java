package io.ferry.profiles.rest;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.ferry.profiles.repository.Profile;
import io.ferry.profiles.repository.ProfileVersion;

import java.time.OffsetDateTime;
import java.util.Map;

/** One version of a profile, with who changed what. */
public record ProfileView(String name, String site, int version, int currentVersion, String summary, String include,
                          Map<String, String> sysctls, @JsonProperty("interface") Map<String, Integer> interfaceSettings,
                          Map<String, Map<String, String>> diff, String comment, OffsetDateTime createdAt,
                          String createdBy) {

    public static ProfileView of(Profile p, ProfileVersion v) {
        return new ProfileView(p.name, p.site, v.version, p.currentVersion, v.summary, v.includeProfile, v.sysctls,
                v.interfaceSettings, v.diff, v.comment, v.createdAt, v.createdBy);
    }
}
