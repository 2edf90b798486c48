package io.ferry.scheduler.metrics;

import io.ferry.engineloop.EngineLoop;
import io.ferry.scheduler.config.MetricsConfig;
import io.ferry.scheduler.config.SchedulerConfig;
import io.ferry.scheduler.db.Db;
import io.ferry.scheduler.loops.RunsWithoutEngine;
import io.ferry.scheduler.queue.EngineIdentity;
import io.ferry.scheduler.queue.FileState;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Duration;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The gauges of what is queued and running, read from PostgreSQL every {@code sample-interval} by one grouped query over
 * the open files (plus the optimizer's targets and the replicas' heartbeats), so that any replica reports the whole
 * deployment's queue. A series once seen stays, at 0 when its files are gone, so that alerts see the drop; every link
 * the optimizer holds a target for has its series from the start.
 */
@ApplicationScoped
public class QueueGaugeSampler extends EngineLoop implements RunsWithoutEngine {

    /** The queues of the engine's loops, by the state their files wait in. */
    static final Map<FileState, String> QUEUES = Map.of(FileState.SUBMITTED, "prepare", FileState.STAGING, "stage", FileState.READY, "transfer");
    static final Set<FileState> SAMPLED = EnumSet.of(FileState.SUBMITTED, FileState.STAGING, FileState.READY, FileState.ACTIVE, FileState.ARCHIVING);

    /** When a file started waiting in its queue: submitted (or queued again), stage request accepted, prepared. */
    static final String BY_STATE = "SELECT state, vo, source_se, dest_se, count(*), "
            + "extract(epoch FROM now() - min(CASE state WHEN 'STAGING' THEN staging_start WHEN 'READY' THEN prepared_at ELSE submitted_at END)) "
            + "FROM transfer_file WHERE state IN (" + FileState.sql(SAMPLED) + ") GROUP BY state, vo, source_se, dest_se";
    static final String TARGETS = "SELECT source_se, dest_se, active_target FROM link_state";
    static final String REPLICAS = "SELECT count(*) FILTER (WHERE beat_at >= now() - make_interval(secs => $1)), "
            + "count(*) FILTER (WHERE beat_at < now() - make_interval(secs => $1)), "
            + "(extract(epoch FROM now() - max(beat_at) FILTER (WHERE replica_id = $2)) * 1000)::bigint FROM scheduler_replica WHERE NOT dead";

    private final Pool pool;
    private final MeterRegistry registry;
    private final MetricsConfig config;
    private final SchedulerConfig scheduler;
    private final EngineIdentity identity;

    @Inject
    QueueGaugeSampler(Pool pool, MeterRegistry registry, MetricsConfig config, SchedulerConfig scheduler, EngineIdentity identity) {
        this.pool = pool;
        this.registry = registry;
        this.config = config;
        this.scheduler = scheduler;
        this.identity = identity;
    }

    private record Series(String name, List<String> tags) {
    }

    private final ConcurrentHashMap<Series, AtomicLong> values = new ConcurrentHashMap<>();
    /** Wall-clock time of this replica's last beat that the database holds; 0 before the first. */
    private final AtomicLong ownBeatAt = new AtomicLong();

    @Override
    public String name() {
        return "queue-gauges";
    }

    /** Every replica samples, the engine's or not. */
    @Override
    protected void beforeStart() {
        for (String queue : QUEUES.values()) {
            value("ferry_queue_files", "queue", queue);
            value("ferry_queue_oldest_age_seconds", "queue", queue);
        }
        value("ferry_scheduler_replicas", "status", "live");
        value("ferry_scheduler_replicas", "status", "silent");
        if (scheduler.engine().enabled()) {
            Gauge.builder("ferry_scheduler_heartbeat_age_seconds", ownBeatAt, at -> at.get() == 0 ? 0 : (System.currentTimeMillis() - at.get()) / 1000.0)
                    .description("time since this replica's last heartbeat that reached the database").register(registry);
        }
    }

    @Override
    protected Duration period() {
        return config.sampleInterval();
    }

    @Override
    protected void pass() {
        Map<Series, Long> seen = new HashMap<>();
        for (Row r : pool.query(BY_STATE).execute().await().atMost(Db.WAIT)) {
            FileState state = FileState.valueOf(r.getString(0));
            long files = r.getLong(4);
            seen.merge(new Series("ferry_files", List.of("state", state.name(), "vo", r.getString(1))), files, Long::sum);
            List<String> link = List.of("source_se", r.getString(2), "dest_se", r.getString(3));
            if (state == FileState.ACTIVE) {
                seen.merge(new Series("ferry_link_active_files", link), files, Long::sum);
            } else if (QUEUES.containsKey(state)) {
                seen.merge(new Series("ferry_link_queued_files", link), files, Long::sum);
                String queue = QUEUES.get(state);
                seen.merge(new Series("ferry_queue_files", List.of("queue", queue)), files, Long::sum);
                Double waited = r.getDouble(5);
                seen.merge(new Series("ferry_queue_oldest_age_seconds", List.of("queue", queue)), waited == null ? 0 : Math.max(0, Math.round(waited)), Math::max);
            }
        }
        for (Row r : pool.query(TARGETS).execute().await().atMost(Db.WAIT)) {
            List<String> link = List.of("source_se", r.getString(0), "dest_se", r.getString(1));
            seen.put(new Series("ferry_link_active_target", link), r.getLong(2));
            // a link the optimizer knows has its active and queued series, at 0 while nothing is on it
            seen.putIfAbsent(new Series("ferry_link_active_files", link), 0L);
            seen.putIfAbsent(new Series("ferry_link_queued_files", link), 0L);
        }
        Row replicas = pool.preparedQuery(REPLICAS).execute(Tuple.of(scheduler.engine().heartbeatTimeout().toMillis() / 1000.0, identity.id()))
                .await().atMost(Db.WAIT).iterator().next();
        seen.put(new Series("ferry_scheduler_replicas", List.of("status", "live")), replicas.getLong(0));
        seen.put(new Series("ferry_scheduler_replicas", List.of("status", "silent")), replicas.getLong(1));
        if (replicas.getLong(2) != null) {
            ownBeatAt.set(System.currentTimeMillis() - replicas.getLong(2));
        }
        values.forEach((series, value) -> value.set(seen.getOrDefault(series, 0L)));
        seen.forEach((series, value) -> value(series.name(), series.tags().toArray(String[]::new)).set(value));
    }

    private AtomicLong value(String name, String... tags) {
        return values.computeIfAbsent(new Series(name, List.of(tags)), s -> {
            AtomicLong v = new AtomicLong();
            Gauge.builder(name, v, AtomicLong::get).description(DESCRIPTIONS.get(name)).tags(tags).register(registry);
            return v;
        });
    }

    static final Map<String, String> DESCRIPTIONS = Map.of(
            "ferry_files", "files in a non-terminal state, per VO",
            "ferry_link_active_files", "files being moved on a link",
            "ferry_link_queued_files", "files waiting on a link (submitted, staging or ready)",
            "ferry_link_active_target", "the optimizer's decided maximum of active files on a link",
            "ferry_queue_files", "files waiting in a queue of the engine: prepare (submitted), stage (staging), transfer (ready)",
            "ferry_queue_oldest_age_seconds", "how long the oldest file of a queue has waited in it",
            "ferry_scheduler_replicas", "scheduler replicas not declared dead: live (beating) or silent (no beat within the heartbeat timeout)");
}
