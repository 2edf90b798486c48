package io.ferry.scheduler.probes;

import io.ferry.identity.security.CurrentCaller;
import io.ferry.problem.Problem;
import io.ferry.problem.ProblemException;
import io.ferry.scheduler.config.SchedulerConfig;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Link probes as operators schedule them: both SEs registered, a file size and interval within the configured
 * bounds; a VO's first probe gives the probe activity its low fair-share weight in that VO, unless an operator set one.
 * Bad settings are refused with every offending field and nothing is stored.
 */
@ApplicationScoped
public class ProbeService {

    /** SONAR's averaging window. */
    public static final Duration AVERAGE_WINDOW = Duration.ofHours(12);

    static final String DEFAULT_VO = "ops";
    private static final Pattern VO = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,99}");
    private static final long MAX_INTERVAL_SECONDS = 366L * 86_400;

    final Pool pool;

    final CurrentCaller caller;

    final SchedulerConfig config;

    @Inject
    public ProbeService(Pool pool, CurrentCaller caller, SchedulerConfig config) {
        this.pool = pool;
        this.caller = caller;
        this.config = config;
    }

    /** A probe with its last 12 hours at a glance and its latest run. */
    public record Listed(Probe probe, ProbeRows.Summary last12h, ProbeRun latest) {
    }

    public Uni<List<Listed>> list() {
        OffsetDateTime since = OffsetDateTime.now(ZoneOffset.UTC).minus(AVERAGE_WINDOW);
        return pool.withConnection(c -> ProbeRows.list(c).flatMap(probes -> ProbeRows.summaries(c, since)
                .flatMap(summaries -> ProbeRows.latestRuns(c).map(latest -> probes.stream()
                        .map(p -> new Listed(p, summaries.getOrDefault(p.probeId(), new ProbeRows.Summary(0, 0, null)), latest.get(p.probeId())))
                        .toList()))));
    }

    public Uni<Listed> get(long id) {
        return list().map(all -> all.stream().filter(l -> l.probe().probeId() == id).findFirst()
                .orElseThrow(() -> ProblemException.notFound("probe " + id)));
    }

    /** The probe's runs since {@code since}, oldest first, each with its 12-hour average. */
    public Uni<List<ProbeRun>> runs(long id, OffsetDateTime since) {
        return pool.withConnection(c -> ProbeRows.find(c, id).flatMap(p -> {
            if (p.isEmpty()) {
                throw ProblemException.notFound("probe " + id);
            }
            return ProbeRows.series(c, List.of(id), since);
        }));
    }

    /** Every probe's runs since {@code since} (the monitor's probes view). */
    public Uni<List<ProbeRun>> allRuns(OffsetDateTime since) {
        return pool.withConnection(c -> ProbeRows.series(c, null, since));
    }

    @WithSpan
    public Uni<Probe> create(ProbeRows.Settings in) {
        List<Problem.FieldError> errors = check(in, true);
        ProbeRows.Settings s = new ProbeRows.Settings(in.sourceSe(), in.destSe(), in.fileSize(), in.intervalSeconds(),
                in.vo() == null ? DEFAULT_VO : in.vo(), in.enabled() == null || in.enabled());
        refuse(errors);
        return pool.withTransaction(c -> requireRegistered(c, List.of(s.sourceSe(), s.destSe()))
                .chain(x -> lowShareFor(c, s.vo()))
                .chain(x -> ProbeRows.insert(c, s, caller.subject())));
    }

    @WithSpan
    public Uni<Probe> update(long id, ProbeRows.Settings in) {
        refuse(check(in, false));
        return pool.withTransaction(c -> ProbeRows.find(c, id).flatMap(existing -> {
            Probe p = existing.orElseThrow(() -> ProblemException.notFound("probe " + id));
            String source = in.sourceSe() != null ? in.sourceSe() : p.sourceSe();
            String dest = in.destSe() != null ? in.destSe() : p.destSe();
            if (source.equals(dest)) {
                refuse(List.of(new Problem.FieldError("dest_se", "must differ from source_se (" + source + ")")));
            }
            return requireRegistered(c, List.of(source, dest))
                    .chain(x -> in.vo() != null ? lowShareFor(c, in.vo()) : Uni.createFrom().voidItem())
                    .chain(x -> ProbeRows.update(c, id, in, caller.subject()))
                    .map(updated -> updated.orElseThrow(() -> ProblemException.notFound("probe " + id)));
        }));
    }

    @WithSpan
    public Uni<Void> delete(long id) {
        return pool.withTransaction(c -> ProbeRows.delete(c, id)).map(deleted -> {
            if (!deleted) {
                throw ProblemException.notFound("probe " + id);
            }
            return null;
        });
    }

    /** Every field that is wrong; on create the SEs, size and interval are required. */
    List<Problem.FieldError> check(ProbeRows.Settings in, boolean create) {
        List<Problem.FieldError> errors = new ArrayList<>();
        if (create && blank(in.sourceSe())) {
            errors.add(new Problem.FieldError("source_se", "required: the registered SE the probe's file is created on"));
        }
        if (create && blank(in.destSe())) {
            errors.add(new Problem.FieldError("dest_se", "required: the registered SE the probe's file is copied to"));
        }
        if ((in.sourceSe() != null && in.sourceSe().isBlank()) || (in.destSe() != null && in.destSe().isBlank())) {
            errors.add(new Problem.FieldError(in.sourceSe() != null && in.sourceSe().isBlank() ? "source_se" : "dest_se", "must not be blank"));
        }
        if (!blank(in.sourceSe()) && in.sourceSe().equals(in.destSe())) {
            errors.add(new Problem.FieldError("dest_se", "must differ from source_se (" + in.sourceSe() + ")"));
        }
        long maxSize = config.probes().maxFileSize().asLongValue();
        if (create && in.fileSize() == null) {
            errors.add(new Problem.FieldError("file_size", "required: the probe file's size in bytes"));
        } else if (in.fileSize() != null && (in.fileSize() < 1 || in.fileSize() > maxSize)) {
            errors.add(new Problem.FieldError("file_size", "bytes, from 1 to " + maxSize + " (ferry.scheduler.probes.max-file-size)"));
        }
        long minInterval = Math.max(1, config.probes().minInterval().toSeconds());
        if (create && in.intervalSeconds() == null) {
            errors.add(new Problem.FieldError("interval_seconds", "required: seconds between two runs"));
        } else if (in.intervalSeconds() != null && (in.intervalSeconds() < minInterval || in.intervalSeconds() > MAX_INTERVAL_SECONDS)) {
            errors.add(new Problem.FieldError("interval_seconds", "seconds, from " + minInterval + " (ferry.scheduler.probes.min-interval) to "
                    + MAX_INTERVAL_SECONDS));
        }
        if (in.vo() != null && !VO.matcher(in.vo()).matches()) {
            errors.add(new Problem.FieldError("vo", "a VO name: letters, digits, '.', '_' or '-', at most 100"));
        }
        return errors;
    }

    private static void refuse(List<Problem.FieldError> errors) {
        if (!errors.isEmpty()) {
            throw ProblemException.badRequest("INVALID_PROBE", errors.size() + " field(s) of the probe are wrong; nothing was stored", errors);
        }
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }

    private static Uni<Void> requireRegistered(SqlClient c, List<String> names) {
        return c.preparedQuery("SELECT name FROM storage_endpoint WHERE name = ANY($1)").execute(Tuple.of(names.toArray(String[]::new)))
                .map(rows -> {
                    List<String> known = new ArrayList<>();
                    rows.forEach(r -> known.add(r.getString(0)));
                    List<String> unknown = names.stream().filter(n -> !known.contains(n)).distinct().toList();
                    if (!unknown.isEmpty()) {
                        throw ProblemException.unprocessable("UNKNOWN_SE", "not registered storage endpoints: " + unknown, Map.of("unknown", unknown));
                    }
                    return null;
                });
    }

    /** The probe activity's low weight in {@code vo}, unless the VO has one for it already (an operator's choice). */
    private Uni<Void> lowShareFor(SqlClient c, String vo) {
        return c.preparedQuery("INSERT INTO activity_share (vo, activity, weight) VALUES ($1, $2, $3) ON CONFLICT (vo, activity) DO NOTHING")
                .execute(Tuple.of(vo, config.probes().activity(), config.probes().activityWeight())).replaceWithVoid();
    }
}
