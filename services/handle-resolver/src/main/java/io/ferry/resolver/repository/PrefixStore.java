package io.ferry.resolver.repository;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.List;

/** The prefixes homed here, with who homed them. */
@ApplicationScoped
public class PrefixStore {

    final Pool pool;

    @Inject
    public PrefixStore(Pool pool) {
        this.pool = pool;
    }

    /** Homes {@code prefix} unless it is homed already, within the caller's transaction {@code c}. */
    public Uni<Void> home(SqlClient c, String prefix, String homedBy) {
        return c.preparedQuery("INSERT INTO prefix (name, homed_by) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING")
                .execute(Tuple.of(prefix, homedBy)).replaceWithVoid();
    }

    /** Answers whether the prefix was homed here. */
    public Uni<Boolean> unhome(String prefix) {
        return pool.preparedQuery("DELETE FROM prefix WHERE name = $1").execute(Tuple.of(prefix)).map(rows -> rows.rowCount() > 0);
    }

    public Uni<List<String>> names() {
        return pool.query("SELECT name FROM prefix ORDER BY name").execute().map(rows -> {
            List<String> out = new ArrayList<>();
            rows.forEach(r -> out.add(r.getString(0)));
            return out;
        });
    }
}
