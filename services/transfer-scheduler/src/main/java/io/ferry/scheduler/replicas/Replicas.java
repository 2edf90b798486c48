package io.ferry.scheduler.replicas;

import io.ferry.scheduler.transitions.FileQueue;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The scheduler replicas' heartbeats ({@code scheduler_replica}). Times are the database's, so the replicas' clocks
 * do not matter. A replica declared dead stays dead: its id may not beat again, the process takes a new one.
 */
@ApplicationScoped
public class Replicas {

    private final Pool pool;

    @Inject
    Replicas(Pool pool) {
        this.pool = pool;
    }

    /** Registers a fresh process start. */
    public Uni<Void> register(String replicaId, String name) {
        return pool.preparedQuery("INSERT INTO scheduler_replica (replica_id, name) VALUES ($1, $2)").execute(Tuple.of(replicaId, name))
                .replaceWithVoid();
    }

    /**
     * Declares the other starts of {@code name} dead at once: a replica with a name of its own (an instance id such as
     * the pod's name) that starts again knows its predecessor is gone and need not wait for its heartbeat to lapse.
     */
    public Uni<Integer> supersede(String name, String replicaId) {
        return pool.preparedQuery("UPDATE scheduler_replica SET dead = TRUE WHERE name = $1 AND replica_id <> $2 AND NOT dead")
                .execute(Tuple.of(name, replicaId)).map(rows -> rows.rowCount());
    }

    /** One beat; false when this id was declared dead (or forgotten) meanwhile. */
    public Uni<Boolean> beat(String replicaId) {
        return pool.preparedQuery("UPDATE scheduler_replica SET beat_at = now() WHERE replica_id = $1 AND NOT dead")
                .execute(Tuple.of(replicaId)).map(rows -> rows.rowCount() == 1);
    }

    /** The replicas other than {@code self} that are dead: declared so, or silent for longer than {@code timeout}. */
    public Uni<List<String>> dead(String self, Duration timeout) {
        return pool.preparedQuery("SELECT replica_id FROM scheduler_replica WHERE replica_id <> $1 "
                        + "AND (dead OR beat_at < now() - make_interval(secs => $2)) ORDER BY beat_at")
                .execute(Tuple.of(self, FileQueue.seconds(timeout))).map(rows -> {
                    List<String> out = new ArrayList<>();
                    rows.forEach(r -> out.add(r.getString(0)));
                    return out;
                });
    }

    /**
     * Marks {@code replicaId} dead before its files are taken, so it cannot beat again under this id; answers
     * whether it still counts as dead (false: it beat just now, in time, and keeps what it has not lost yet).
     */
    public Uni<Boolean> declareDead(String replicaId, Duration timeout) {
        return pool.preparedQuery("UPDATE scheduler_replica SET dead = TRUE WHERE replica_id = $1 "
                        + "AND (dead OR beat_at < now() - make_interval(secs => $2))")
                .execute(Tuple.of(replicaId, FileQueue.seconds(timeout))).map(rows -> rows.rowCount() == 1);
    }

    /** A draining replica's last word: whatever it still holds is the others' to take at once. */
    public Uni<Void> retire(String replicaId) {
        return pool.preparedQuery("UPDATE scheduler_replica SET dead = TRUE WHERE replica_id = $1").execute(Tuple.of(replicaId)).replaceWithVoid();
    }

    /** What one live replica is doing: files it moves ({@code ACTIVE}) and stages ({@code STAGING}). */
    public record Activity(String name, long active, long staging) {
    }

    /** The activity of every replica that beat within {@code timeout}, by name (FTS3's hosts), idle ones included. */
    public Uni<List<Activity>> activity(Duration timeout) {
        return pool.preparedQuery("SELECT r.name, count(f.file_id) FILTER (WHERE f.state = 'ACTIVE'), "
                        + "count(f.file_id) FILTER (WHERE f.state = 'STAGING') FROM scheduler_replica r "
                        + "LEFT JOIN transfer_file f ON f.lease_owner = r.replica_id AND f.state IN ('ACTIVE', 'STAGING') "
                        + "WHERE NOT r.dead AND r.beat_at >= now() - make_interval(secs => $1) GROUP BY r.name ORDER BY r.name")
                .execute(Tuple.of(FileQueue.seconds(timeout))).map(rows -> {
                    List<Activity> out = new ArrayList<>();
                    rows.forEach(r -> out.add(new Activity(r.getString(0), r.getLong(1), r.getLong(2))));
                    return out;
                });
    }

    /** Forgets a dead replica once its files are back in the queue. */
    public Uni<Void> forget(String replicaId) {
        return pool.preparedQuery("DELETE FROM scheduler_replica WHERE replica_id = $1 AND dead").execute(Tuple.of(replicaId)).replaceWithVoid();
    }
}
