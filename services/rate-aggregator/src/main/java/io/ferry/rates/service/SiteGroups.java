package io.ferry.rates.service;

import io.ferry.problem.ProblemException;
import io.ferry.rates.model.Names;
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

/**
 * Site groups ("UK-T2s"). Group figures are folded from site-pair rollups when asked for, so a group defined
 * today covers the whole history that rollups keep.
 */
@ApplicationScoped
public class SiteGroups {

    public record Group(String name, List<String> sites) {
    }

    @Inject
    Pool pool;

    public Uni<List<Group>> list() {
        return pool.query("SELECT g.name, m.site FROM site_group g LEFT JOIN site_group_member m ON m.group_name = g.name ORDER BY 1, 2")
                .execute().map(rows -> {
                    Map<String, List<String>> groups = new LinkedHashMap<>();
                    for (Row r : rows) {
                        List<String> sites = groups.computeIfAbsent(r.getString(0), k -> new ArrayList<>());
                        if (r.getString(1) != null) {
                            sites.add(r.getString(1));
                        }
                    }
                    List<Group> out = new ArrayList<>();
                    groups.forEach((k, v) -> out.add(new Group(k, v)));
                    return out;
                });
    }

    public Uni<Group> put(String name, List<String> sites) {
        requireName(name);
        if (sites == null || sites.isEmpty() || sites.size() > 1000 || sites.stream().anyMatch(s -> s == null || !Names.isName(s))) {
            throw ProblemException.badRequest("sites", "a list of 1 to 1000 site names (" + Names.RULE + ")");
        }
        List<String> distinct = sites.stream().distinct().sorted().toList();
        return pool.withTransaction(tx -> tx.preparedQuery("INSERT INTO site_group (name) VALUES ($1) ON CONFLICT DO NOTHING")
                .execute(Tuple.of(name))
                .flatMap(x -> tx.preparedQuery("DELETE FROM site_group_member WHERE group_name = $1").execute(Tuple.of(name)))
                .flatMap(x -> tx.preparedQuery("INSERT INTO site_group_member (group_name, site) SELECT $1, unnest($2::varchar[])")
                        .execute(Tuple.of(name, distinct.toArray(String[]::new))))
                .map(x -> new Group(name, distinct)));
    }

    public Uni<Void> delete(String name) {
        requireName(name);
        return pool.preparedQuery("DELETE FROM site_group WHERE name = $1").execute(Tuple.of(name)).map(rows -> {
            if (rows.rowCount() == 0) {
                throw ProblemException.notFound("site group '" + name + "'");
            }
            return null;
        });
    }

    private static void requireName(String name) {
        if (!name.matches("[A-Za-z0-9][A-Za-z0-9_.+-]{0,99}")) {
            throw ProblemException.badRequest("name", "group names are letters, digits, '_', '.', '+' and '-'");
        }
    }
}
