package io.ferry.profiles.api;

import io.ferry.profiles.model.DriftCheck;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.time.OffsetDateTime;
import java.util.List;

/** A host's drift; profile, version, rule and observation time are null where there is none. */
public record Drift(String host, String site, Status status, @Schema(nullable = true) String profile,
                    @Schema(nullable = true) Integer profileVersion, @Schema(nullable = true) String rule,
                    @Schema(nullable = true) OffsetDateTime observedAt, List<DriftCheck.Difference> differences) {

    public enum Status { IN_SYNC, DRIFTED, NO_OBSERVATION, NO_PROFILE }
}
