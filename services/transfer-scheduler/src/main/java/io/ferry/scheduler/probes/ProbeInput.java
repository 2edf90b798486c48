package io.ferry.scheduler.probes;

import io.ferry.scheduler.ApiPatterns;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A probe's settings: the SEs (registered), the file's size in bytes, seconds between runs, the VO its jobs run
 * for (default {@code ops}) and whether it runs. On update, omitted fields keep their values.
 */
public record ProbeInput(
        @Schema(nullable = true, pattern = ApiPatterns.NOT_BLANK) String source_se,
        @Schema(nullable = true, pattern = ApiPatterns.NOT_BLANK) String dest_se,
        @Schema(nullable = true, minimum = "1", maximum = "10737418240", description = "bytes, at most ferry.scheduler.probes.max-file-size") Long file_size,
        @Schema(nullable = true, minimum = "300", maximum = "31622400", description = "seconds, at least ferry.scheduler.probes.min-interval") Integer interval_seconds,
        @Schema(nullable = true, pattern = ApiPatterns.VO) String vo,
        @Schema(nullable = true) Boolean enabled) {

    ProbeRows.Settings settings() {
        return new ProbeRows.Settings(source_se, dest_se, file_size, interval_seconds, vo, enabled);
    }
}
