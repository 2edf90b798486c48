package io.ferry.resolver.service;

import io.ferry.problem.ProblemException;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.List;

/**
 * Identifiers with fewer than N available replicas — sites found 556 of 1,497 datasets with a single copy; this
 * finds them before a disk does. Data objects are handles with a bound name or any replica record.
 */
@ApplicationScoped
public class AtRiskReport {

    public record Item(String handle, List<String> names, long availableReplicas, long bytes) {
    }

    public record Report(int minReplicas, String scope, long identifiers, long atRisk, long singleCopy, long noCopy,
                         long bytesAtRisk, List<Item> items) {
    }

    @Inject
    Pool pool;

    @WithSpan
    public Uni<Report> report(int minReplicas, String scope, int limit) {
        if (minReplicas < 1 || minReplicas > 100) {
            throw ProblemException.badRequest("min_replicas", "between 1 and 100");
        }
        String sql = "WITH objects AS (SELECT h.handle FROM handle h WHERE h.tombstoned_at IS NULL AND ("
                + " EXISTS (SELECT 1 FROM logical_name n WHERE n.handle = h.handle AND ($2::text IS NULL OR n.scope = $2))"
                + " OR ($2::text IS NULL AND EXISTS (SELECT 1 FROM replica r WHERE r.handle = h.handle)))), "
                + "counted AS (SELECT o.handle, count(r.se) FILTER (WHERE r.state = 'AVAILABLE') AS available, "
                + "coalesce(max(r.size), 0) AS bytes FROM objects o LEFT JOIN replica r ON r.handle = o.handle GROUP BY o.handle) "
                + "SELECT c.handle, c.available, c.bytes, (SELECT array_agg(name ORDER BY name) FROM logical_name n WHERE n.handle = c.handle), "
                + "count(*) OVER () AS identifiers, count(*) FILTER (WHERE c.available < $1) OVER () AS at_risk, "
                + "count(*) FILTER (WHERE c.available = 1) OVER () AS single, count(*) FILTER (WHERE c.available = 0) OVER () AS none, "
                + "sum(c.bytes) FILTER (WHERE c.available < $1) OVER () AS bytes_at_risk "
                + "FROM counted c ORDER BY (c.available < $1) DESC, c.available, c.bytes DESC, c.handle";
        return pool.preparedQuery(sql).execute(Tuple.of(minReplicas, scope)).map(rows -> {
            List<Item> items = new ArrayList<>();
            long identifiers = 0;
            long atRisk = 0;
            long single = 0;
            long none = 0;
            long bytes = 0;
            for (Row r : rows) {
                identifiers = r.getLong(4);
                atRisk = r.getLong(5);
                single = r.getLong(6);
                none = r.getLong(7);
                bytes = r.getLong(8) == null ? 0 : r.getLong(8);
                if (r.getLong(1) < minReplicas && items.size() < limit) {
                    String[] names = r.getArrayOfStrings(3);
                    items.add(new Item(r.getString(0), names == null ? List.of() : List.of(names), r.getLong(1), r.getLong(2)));
                }
            }
            return new Report(minReplicas, scope, identifiers, atRisk, single, none, bytes, items);
        });
    }
}
