package io.ferry.scheduler.monitor;

import io.ferry.identity.model.FerryRoles;
import io.ferry.identity.security.CurrentCaller;
import io.ferry.problem.ProblemException;
import io.ferry.scheduler.config.SchedulerConfig;
import io.ferry.scheduler.monitor.MonitorQueries.LinkVoCounts;
import io.ferry.scheduler.probes.ProbeRun;
import io.ferry.scheduler.probes.ProbeService;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * What the web monitor shows beyond the API: the overview per link and per VO (as FTS3's monitor overview) and
 * failures grouped by link and error code. A VO's caller sees its own VO's files only; administrators every VO's
 * (or one, when they name it).
 */
@ApplicationScoped
public class MonitorService {

    /** Totals of a group of files (a link, a VO, or all); throughputs in bytes/s. */
    public record Totals(long active, long queued, long finished, long failed, long canceled, long bytesFinished,
                         double bytesPerSecond, Double avgFileThroughput, Double successRate) {
    }

    public record Row(String key1, String key2, Totals totals) {
    }

    public record Overview(Duration window, OffsetDateTime since, Totals all, List<Row> links, List<Row> vos) {
    }

    final MonitorQueries queries;

    final CurrentCaller caller;

    final ProbeService probes;

    final SchedulerConfig config;

    @Inject
    public MonitorService(MonitorQueries queries, CurrentCaller caller, ProbeService probes, SchedulerConfig config) {
        this.queries = queries;
        this.caller = caller;
        this.probes = probes;
        this.config = config;
    }

    /** Bins a probes view's production series is cut into. */
    static final int PRODUCTION_BINS = 48;

    /** A link's probes, their runs within the window, and its production in bins of {@code binSeconds}. */
    public record ProbeLink(String sourceSe, String destSe, List<ProbeService.Listed> probes, List<ProbeRun> runs,
                            List<MonitorQueries.ProductionBin> production) {
    }

    public record ProbesView(Duration window, OffsetDateTime since, long binSeconds, List<ProbeLink> links) {
    }

    public Uni<Overview> overview(Duration window, String voName) {
        OffsetDateTime since = OffsetDateTime.now(ZoneOffset.UTC).minus(window);
        return queries.counts(since, scope(voName)).map(rows -> new Overview(window, since, sum(rows, window),
                grouped(rows, r -> r.sourceSe() + "\u0000" + r.destSe(), window), grouped(rows, r -> r.vo() + "\u0000", window)));
    }

    public Uni<List<MonitorQueries.ErrorGroup>> errors(Duration window, String voName, int limit) {
        OffsetDateTime since = OffsetDateTime.now(ZoneOffset.UTC).minus(window);
        return queries.errors(since, scope(voName), 3, limit);
    }

    /**
     * Every probed link: its probes, their runs within the window (each with its 12-hour average) and the link's
     * production in the same window (the probe activity left out; a VO's caller sees its own VO's production).
     */
    public Uni<ProbesView> probes(Duration window, String voName) {
        OffsetDateTime since = OffsetDateTime.now(ZoneOffset.UTC).minus(window);
        long bin = Math.max(60, window.toSeconds() / PRODUCTION_BINS);
        String vo = scope(voName);
        return probes.list().flatMap(listed -> probes.allRuns(since).flatMap(runs -> queries.production(since, bin, vo, config.probes().activity())
                .map(production -> {
                    Map<String, ProbeLink> links = new TreeMap<>();
                    for (ProbeService.Listed l : listed) {
                        links.computeIfAbsent(l.probe().sourceSe() + "\u0000" + l.probe().destSe(), k -> new ProbeLink(l.probe().sourceSe(),
                                l.probe().destSe(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>())).probes().add(l);
                    }
                    runs.forEach(r -> {
                        ProbeLink link = links.get(r.sourceSe() + "\u0000" + r.destSe());
                        if (link != null) {
                            link.runs().add(r);
                        }
                    });
                    production.forEach(p -> {
                        ProbeLink link = links.get(p.sourceSe() + "\u0000" + p.destSe());
                        if (link != null) {
                            link.production().add(p);
                        }
                    });
                    return new ProbesView(window, since, bin, List.copyOf(links.values()));
                })));
    }

    /** The VO whose files the caller may read: its own, or for administrators the one named (null: all). */
    private String scope(String voName) {
        if (caller.hasRole(FerryRoles.TRANSFER_ADMIN)) {
            return voName == null || voName.isBlank() ? null : voName;
        }
        String vo = caller.vo();
        if (vo == null || vo.isBlank()) {
            throw ProblemException.forbidden("the token names no VO (claim 'vo'), so it owns no transfers");
        }
        return vo;
    }

    private static List<Row> grouped(List<LinkVoCounts> rows, Function<LinkVoCounts, String> key, Duration window) {
        Map<String, List<LinkVoCounts>> groups = new TreeMap<>();
        rows.forEach(r -> groups.computeIfAbsent(key.apply(r), k -> new ArrayList<>()).add(r));
        List<Row> out = new ArrayList<>();
        groups.forEach((k, members) -> {
            String[] parts = k.split("\u0000", -1);
            out.add(new Row(parts[0], parts[1].isEmpty() ? null : parts[1], sum(members, window)));
        });
        return out;
    }

    static Totals sum(List<LinkVoCounts> rows, Duration window) {
        long active = 0, queued = 0, finished = 0, failed = 0, canceled = 0, bytes = 0, samples = 0;
        double throughput = 0;
        for (LinkVoCounts r : rows) {
            active += r.active();
            queued += r.queued();
            finished += r.finished();
            failed += r.failed();
            canceled += r.canceled();
            bytes += r.bytesFinished();
            throughput += r.throughputSum();
            samples += r.throughputSamples();
        }
        return new Totals(active, queued, finished, failed, canceled, bytes, bytes / (double) window.toSeconds(),
                samples == 0 ? null : throughput / samples, finished + failed == 0 ? null : finished / (double) (finished + failed));
    }
}
