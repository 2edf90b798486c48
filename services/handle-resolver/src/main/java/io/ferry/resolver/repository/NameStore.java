package io.ferry.resolver.repository;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** Logical names (LFNs, GUIDs, scope:name) bound to handles, with who bound them. */
@ApplicationScoped
public class NameStore {

    /** A bound name's handle and owner (the subject and VO that bound it). */
    public record Binding(String handle, String ownerSubject, String ownerVo) {
    }

    final Pool pool;

    @Inject
    public NameStore(Pool pool) {
        this.pool = pool;
    }

    /** The handle {@code name} is bound to (of {@code kind}, when given); an LFN matches without its leading slash too. */
    public Uni<String> handleOf(String name, String kind) {
        return pool.preparedQuery("SELECT handle FROM logical_name WHERE (name = $1 OR (kind = 'lfn' AND name = '/' || $1)) "
                        + "AND ($2::text IS NULL OR kind = $2) ORDER BY name = $1 DESC LIMIT 1")
                .execute(Tuple.of(name, kind)).map(rows -> rows.size() == 0 ? null : rows.iterator().next().getString(0));
    }

    /** The names bound to {@code handle}, sorted. */
    public Uni<List<String>> namesOf(String handle) {
        return pool.preparedQuery("SELECT name FROM logical_name WHERE handle = $1 ORDER BY name").execute(Tuple.of(handle)).map(rows -> {
            List<String> out = new ArrayList<>();
            rows.forEach(r -> out.add(r.getString(0)));
            return out;
        });
    }

    /** Binds the name unless it is bound already; answers whether it was free. */
    public Uni<Boolean> bind(String name, String kind, String handle, String scope, String ownerSubject, String ownerVo) {
        return pool.preparedQuery("INSERT INTO logical_name (name, kind, handle, scope, owner_sub, owner_vo) "
                        + "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (name) DO NOTHING")
                .execute(Tuple.from(Arrays.asList(name, kind, handle, scope, ownerSubject, ownerVo)))
                .map(rows -> rows.rowCount() > 0);
    }

    public Uni<Optional<Binding>> binding(String name) {
        return pool.preparedQuery("SELECT handle, owner_sub, owner_vo FROM logical_name WHERE name = $1").execute(Tuple.of(name)).map(rows -> {
            if (rows.size() == 0) {
                return Optional.empty();
            }
            Row r = rows.iterator().next();
            return Optional.of(new Binding(r.getString(0), r.getString(1), r.getString(2)));
        });
    }

    public Uni<Void> unbind(String name, String handle) {
        return pool.preparedQuery("DELETE FROM logical_name WHERE name = $1 AND handle = $2").execute(Tuple.of(name, handle)).replaceWithVoid();
    }
}
