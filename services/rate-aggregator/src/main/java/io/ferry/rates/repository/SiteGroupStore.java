package io.ferry.rates.repository;

import io.ferry.rates.api.SiteGroup;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Site groups and their member sites, as stored. */
@ApplicationScoped
public class SiteGroupStore {

    final Pool pool;

    @Inject
    public SiteGroupStore(Pool pool) {
        this.pool = pool;
    }

    /** Every group with its sites, by name. */
    public Uni<List<SiteGroup>> list() {
        return pool.query("SELECT g.name, m.site FROM site_group g LEFT JOIN site_group_member m ON m.group_name = g.name ORDER BY 1, 2")
                .execute().map(rows -> {
                    Map<String, List<String>> groups = new LinkedHashMap<>();
                    for (Row r : rows) {
                        List<String> sites = groups.computeIfAbsent(r.getString(0), k -> new ArrayList<>());
                        if (r.getString(1) != null) {
                            sites.add(r.getString(1));
                        }
                    }
                    List<SiteGroup> out = new ArrayList<>();
                    groups.forEach((k, v) -> out.add(new SiteGroup(k, v)));
                    return out;
                });
    }

    /** Creates the group or replaces its sites, in one transaction. */
    public Uni<SiteGroup> put(String name, List<String> sites) {
        return pool.withTransaction(tx -> tx.preparedQuery("INSERT INTO site_group (name) VALUES ($1) ON CONFLICT DO NOTHING")
                .execute(Tuple.of(name))
                .flatMap(x -> tx.preparedQuery("DELETE FROM site_group_member WHERE group_name = $1").execute(Tuple.of(name)))
                .flatMap(x -> tx.preparedQuery("INSERT INTO site_group_member (group_name, site) SELECT $1, unnest($2::varchar[])")
                        .execute(Tuple.of(name, sites.toArray(String[]::new))))
                .map(x -> new SiteGroup(name, sites)));
    }

    /** Whether there was such a group to delete. */
    public Uni<Boolean> delete(String name) {
        return pool.preparedQuery("DELETE FROM site_group WHERE name = $1").execute(Tuple.of(name)).map(rows -> rows.rowCount() > 0);
    }
}
