package io.ferry.resolver.repository;

import io.ferry.resolver.api.AtRiskItem;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Data objects (handles with a bound name or any replica record) counted by their available replicas: totals over
 * all of them, and a page of those with too few, in report order (available replicas, most bytes first, handle).
 */
@ApplicationScoped
public class AtRiskObjects {

    public record Totals(long identifiers, long atRisk, long singleCopy, long noCopy, long bytesAtRisk) {
    }

    /** Where a page starts: after this item in report order. */
    public record After(long available, long bytes, String handle) {
    }

    public record Page(Totals totals, List<AtRiskItem> items) {
    }

    static final String SQL = "WITH objects AS (SELECT h.handle FROM handle h WHERE h.tombstoned_at IS NULL AND ("
            + " EXISTS (SELECT 1 FROM logical_name n WHERE n.handle = h.handle AND ($2::text IS NULL OR n.scope = $2))"
            + " OR ($2::text IS NULL AND EXISTS (SELECT 1 FROM replica r WHERE r.handle = h.handle)))), "
            + "counted AS (SELECT o.handle, count(r.se) FILTER (WHERE r.state = 'AVAILABLE') AS available, "
            + "coalesce(max(r.size), 0) AS bytes FROM objects o LEFT JOIN replica r ON r.handle = o.handle GROUP BY o.handle), "
            + "totals AS (SELECT count(*) AS identifiers, count(*) FILTER (WHERE available < $1) AS at_risk, "
            + "count(*) FILTER (WHERE available = 1) AS single, count(*) FILTER (WHERE available = 0) AS none, "
            + "coalesce(sum(bytes) FILTER (WHERE available < $1), 0) AS bytes_at_risk FROM counted) "
            + "SELECT t.identifiers, t.at_risk, t.single, t.none, t.bytes_at_risk, p.handle, p.available, p.bytes, p.names "
            + "FROM totals t LEFT JOIN LATERAL (SELECT c.handle, c.available, c.bytes, "
            + "(SELECT array_agg(name ORDER BY name) FROM logical_name n WHERE n.handle = c.handle) AS names FROM counted c "
            + "WHERE c.available < $1 AND ($3::bigint IS NULL OR c.available > $3 OR (c.available = $3 AND (c.bytes < $4 "
            + "OR (c.bytes = $4 AND c.handle > $5)))) ORDER BY c.available, c.bytes DESC, c.handle LIMIT $6) p ON true "
            + "ORDER BY p.available, p.bytes DESC, p.handle";

    final Pool pool;

    @Inject
    public AtRiskObjects(Pool pool) {
        this.pool = pool;
    }

    /**
     * The objects with fewer than {@code minReplicas} available replicas (of {@code scope}'s names, or all), at most
     * {@code limit} after {@code after} (null: from the start); the database gives up after {@code timeout}.
     */
    public Uni<Page> page(int minReplicas, String scope, After after, int limit, String timeout) {
        Tuple args = Tuple.from(Arrays.asList(minReplicas, scope, after == null ? null : after.available(),
                after == null ? null : after.bytes(), after == null ? null : after.handle(), limit));
        return pool.withTransaction(c -> c.query("SET LOCAL statement_timeout = '" + timeout + "'").execute()
                        .flatMap(x -> c.preparedQuery(SQL).execute(args)))
                .map(rows -> {
                    List<AtRiskItem> items = new ArrayList<>();
                    long[] totals = new long[5];
                    for (Row r : rows) {
                        for (int i = 0; i < 5; i++) {
                            totals[i] = r.getLong(i) == null ? 0 : r.getLong(i);
                        }
                        if (r.getString(5) != null) {
                            String[] names = r.getArrayOfStrings(8);
                            items.add(new AtRiskItem(r.getString(5), names == null ? List.of() : List.of(names), r.getLong(6), r.getLong(7)));
                        }
                    }
                    return new Page(new Totals(totals[0], totals[1], totals[2], totals[3], totals[4]), items);
                });
    }
}
