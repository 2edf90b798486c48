package io.ferry.resolver.repository;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The replica records of data objects: one per handle and SE. */
@ApplicationScoped
public class ReplicaStore {

    public record StoredReplica(String se, String path, Long size, String adler32, String state, OffsetDateTime createdAt) {
    }

    final Pool pool;

    @Inject
    public ReplicaStore(Pool pool) {
        this.pool = pool;
    }

    /** The replicas recorded for {@code handle}. */
    public Uni<List<StoredReplica>> of(String handle) {
        return pool.preparedQuery("SELECT se, path, size, adler32, state, created_at FROM replica WHERE handle = $1").execute(Tuple.of(handle))
                .map(rows -> {
                    List<StoredReplica> out = new ArrayList<>();
                    for (Row r : rows) {
                        out.add(new StoredReplica(r.getString(0), r.getString(1), r.getLong(2), r.getString(3), r.getString(4),
                                r.getOffsetDateTime(5)));
                    }
                    return out;
                });
    }

    /** Records a replica, or replaces the record of the handle's replica on that SE. */
    public Uni<Void> put(String handle, String se, String path, Long size, String adler32, String state) {
        return pool.preparedQuery("INSERT INTO replica (handle, se, path, size, adler32, state) "
                        + "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (handle, se) DO UPDATE SET path = EXCLUDED.path, size = EXCLUDED.size, "
                        + "adler32 = EXCLUDED.adler32, state = EXCLUDED.state")
                .execute(Tuple.from(Arrays.asList(handle, se, path, size, adler32, state)))
                .replaceWithVoid();
    }

    /** Forgets every replica of {@code handle}, within the caller's transaction {@code c}. */
    public Uni<Void> deleteAll(SqlClient c, String handle) {
        return c.preparedQuery("DELETE FROM replica WHERE handle = $1").execute(Tuple.of(handle)).replaceWithVoid();
    }
}
