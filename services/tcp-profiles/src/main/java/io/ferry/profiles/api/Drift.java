package io.ferry.profiles.api;

import io.ferry.profiles.model.DriftCheck;
import java.time.OffsetDateTime;
import java.util.List;

public record Drift(String host, String site, Status status, String profile, Integer profileVersion, String rule,
                    OffsetDateTime observedAt, List<DriftCheck.Difference> differences) {

    public enum Status { IN_SYNC, DRIFTED, NO_OBSERVATION, NO_PROFILE }
}
