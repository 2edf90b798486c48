package io.ferry.scheduler.probes;


import java.time.OffsetDateTime;

/**
 * A probe, its runs of the last 12 hours (how many, how many finished, their mean throughput in bytes/s) and its
 * latest run (whose {@code error} says why a run failed or could not start).
 */
public record ProbeView(long probe_id, String source_se, String dest_se, long file_size, int interval_seconds, String vo, boolean enabled,
                        OffsetDateTime next_run, OffsetDateTime created_at, OffsetDateTime updated_at, String updated_by, long runs_12h,
                        long finished_12h, Double average_12h_bytes_per_s, ProbeRunView last_run) {

    public static ProbeView of(Probe p) {
        return of(new ProbeService.Listed(p, new ProbeRows.Summary(0, 0, null), null));
    }

    public static ProbeView of(ProbeService.Listed l) {
        Probe p = l.probe();
        return new ProbeView(p.probeId(), p.sourceSe(), p.destSe(), p.fileSize(), p.intervalSeconds(), p.vo(), p.enabled(), p.nextRun(),
                p.createdAt(), p.updatedAt(), p.updatedBy(), l.last12h().runs(), l.last12h().finished(), l.last12h().averageThroughput(),
                ProbeRunView.of(l.latest()));
    }
}
