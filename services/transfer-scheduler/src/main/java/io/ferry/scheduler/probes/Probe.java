package io.ferry.scheduler.probes;

import java.time.OffsetDateTime;

/** A link probe as stored ({@code link_probe}): what it moves between which SEs how often, for which VO. */
public record Probe(long probeId, String sourceSe, String destSe, long fileSize, int intervalSeconds, String vo, boolean enabled,
                    OffsetDateTime nextRun, OffsetDateTime createdAt, OffsetDateTime updatedAt, String updatedBy) {
}
