package io.ferry.scheduler.probes;


/**
 * A probe's settings: the SEs (registered), the file's size in bytes, seconds between runs, the VO its jobs run
 * for (default {@code ops}) and whether it runs. On update, omitted fields keep their values.
 */
public record ProbeInput(String source_se, String dest_se, Long file_size, Integer interval_seconds, String vo, Boolean enabled) {

    ProbeRows.Settings settings() {
        return new ProbeRows.Settings(source_se, dest_se, file_size, interval_seconds, vo, enabled);
    }
}
