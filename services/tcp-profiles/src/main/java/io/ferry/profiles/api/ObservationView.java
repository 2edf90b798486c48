package io.ferry.profiles.api;

import java.time.OffsetDateTime;
import java.util.Map;

/** A host's recorded observation as clients read it: when, from whom, and how much it held. */
public record ObservationView(Long id, OffsetDateTime observedAt, OffsetDateTime receivedAt, String receivedBy,
                              int sysctlCount, Map<String, Map<String, Integer>> interfaces) {
}
