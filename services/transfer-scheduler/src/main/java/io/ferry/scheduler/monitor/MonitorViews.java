package io.ferry.scheduler.monitor;


import io.ferry.scheduler.probes.ProbeRunView;
import io.ferry.scheduler.probes.ProbeView;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.time.OffsetDateTime;
import java.util.List;

/** The web monitor's answers, named as the rest of the API names things (snake case; bytes, bytes/s, seconds). */
public final class MonitorViews {

    private MonitorViews() {
    }

    public record Counts(long active, long queued, long finished, long failed, long canceled, long bytes_finished,
                         double bytes_per_second, @Schema(nullable = true) Double avg_file_throughput,
                         @Schema(nullable = true) Double success_rate) {
        static Counts of(MonitorService.Totals t) {
            return new Counts(t.active(), t.queued(), t.finished(), t.failed(), t.canceled(), t.bytesFinished(), t.bytesPerSecond(),
                    t.avgFileThroughput(), t.successRate());
        }
    }

    public record LinkRow(String source_se, String dest_se, Counts counts) {
    }

    public record VoRow(String vo, Counts counts) {
    }

    public record Overview(long window_seconds, OffsetDateTime since, Counts totals, List<LinkRow> links, List<VoRow> vos) {
        static Overview of(MonitorService.Overview o) {
            return new Overview(o.window().toSeconds(), o.since(), Counts.of(o.all()),
                    o.links().stream().map(r -> new LinkRow(r.key1(), r.key2(), Counts.of(r.totals()))).toList(),
                    o.vos().stream().map(r -> new VoRow(r.key1(), Counts.of(r.totals()))).toList());
        }
    }

    public record Example(String job_id, long file_id, String vo, String reason, OffsetDateTime at) {
    }

    public record ErrorGroup(String source_se, String dest_se, String error_code, long count, OffsetDateTime last_seen, List<Example> examples) {
        static ErrorGroup of(MonitorQueries.ErrorGroup g) {
            return new ErrorGroup(g.sourceSe(), g.destSe(), g.errorCode(), g.count(), g.lastSeen(),
                    g.examples().stream().map(e -> new Example(e.jobId(), e.fileId(), e.vo(), e.reason(), e.at())).toList());
        }
    }

    public record Errors(long window_seconds, List<ErrorGroup> groups) {
    }

    /** A link's production in one bin: bytes/s over the bin (all its files together) and the mean per-file rate. */
    public record ProductionPoint(OffsetDateTime at, double bytes_per_second, Double avg_file_throughput) {
    }

    public record ProbeLink(String source_se, String dest_se, List<ProbeView> probes, List<ProbeRunView> runs, List<ProductionPoint> production) {
    }

    public record Probes(long window_seconds, OffsetDateTime since, long bin_seconds, List<ProbeLink> links) {
        static Probes of(MonitorService.ProbesView v) {
            return new Probes(v.window().toSeconds(), v.since(), v.binSeconds(), v.links().stream().map(l -> new ProbeLink(l.sourceSe(), l.destSe(),
                    l.probes().stream().map(ProbeView::of).toList(), l.runs().stream().map(ProbeRunView::of).toList(),
                    l.production().stream().map(p -> new ProductionPoint(p.binStart(), p.bytes() / (double) v.binSeconds(), p.avgFileThroughput())).toList()))
                    .toList());
        }
    }

    /** What the page needs before it signs in: where rate-aggregator's dashboard is. */
    public record PageConfig(String dashboard_url) {
    }
}
