package io.ferry.resolver.service;

import io.ferry.problem.Problem;
import io.ferry.problem.ProblemException;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

/**
 * Identifiers with fewer than N available replicas — sites found 556 of 1,497 datasets with a single copy; this
 * finds them before a disk does. Data objects are handles with a bound name or any replica record.
 * <p>
 * The report is anonymous, so it is bounded: one page of at most {@value #MAX_LIMIT} items (default
 * {@value #DEFAULT_LIMIT}), the next page after an opaque {@code cursor} (keyset: available replicas, bytes, handle,
 * so a page costs the same wherever it starts), and the database gives up on it after {@value #TIMEOUT}.
 */
@ApplicationScoped
public class AtRiskReport {

    public static final int DEFAULT_LIMIT = 100;
    public static final int MAX_LIMIT = 1000;
    static final String TIMEOUT = "10s";

    public record Item(String handle, List<String> names, long availableReplicas, long bytes) {
    }

    /** Totals over every identifier, and one page of the at-risk ones; {@code next} is the cursor of the next page. */
    public record Report(int minReplicas, String scope, long identifiers, long atRisk, long singleCopy, long noCopy,
                         long bytesAtRisk, int limit, String next, List<Item> items) {
    }

    /** Where a page starts: after this item in report order. */
    record Cursor(long available, long bytes, String handle) {

        String encode() {
            return Base64.getUrlEncoder().withoutPadding().encodeToString((available + ":" + bytes + ":" + handle).getBytes(StandardCharsets.UTF_8));
        }

        static Cursor decode(String text) {
            try {
                String[] parts = new String(Base64.getUrlDecoder().decode(text), StandardCharsets.UTF_8).split(":", 3);
                return new Cursor(Long.parseLong(parts[0]), Long.parseLong(parts[1]), parts[2]);
            } catch (IllegalArgumentException | ArrayIndexOutOfBoundsException e) {
                throw ProblemException.badRequest("cursor", "not a cursor of this report (use the 'next' of a page)");
            }
        }
    }

    @Inject
    Pool pool;

    /** The page size asked for: 1..{@value #MAX_LIMIT}, {@value #DEFAULT_LIMIT} when not given. */
    public static int limit(String text) {
        if (text == null || text.isBlank()) {
            return DEFAULT_LIMIT;
        }
        try {
            int limit = Integer.parseInt(text.trim());
            if (limit >= 1 && limit <= MAX_LIMIT) {
                return limit;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw ProblemException.badRequest("limit", "between 1 and " + MAX_LIMIT);
    }

    @WithSpan
    public Uni<Report> report(int minReplicas, String scope, int limit, String cursorText) {
        if (minReplicas < 1 || minReplicas > 100) {
            throw ProblemException.badRequest("min_replicas", "between 1 and 100");
        }
        if (scope != null && (scope.length() > 100 || scope.indexOf('\0') >= 0)) {
            throw ProblemException.badRequest("scope", "a scope of at most 100 characters");
        }
        Cursor after = cursorText == null || cursorText.isEmpty() ? null : Cursor.decode(cursorText);
        String sql = "WITH objects AS (SELECT h.handle FROM handle h WHERE h.tombstoned_at IS NULL AND ("
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
        Tuple args = Tuple.from(Arrays.asList(minReplicas, scope, after == null ? null : after.available(),
                after == null ? null : after.bytes(), after == null ? null : after.handle(), limit + 1));
        return pool.withTransaction(c -> c.query("SET LOCAL statement_timeout = '" + TIMEOUT + "'").execute()
                        .flatMap(x -> c.preparedQuery(sql).execute(args)))
                .map(rows -> {
                    List<Item> items = new ArrayList<>();
                    long[] totals = new long[5];
                    Item last = null;
                    boolean more = false;
                    for (Row r : rows) {
                        for (int i = 0; i < 5; i++) {
                            totals[i] = r.getLong(i) == null ? 0 : r.getLong(i);
                        }
                        if (r.getString(5) == null) {
                            continue;
                        }
                        if (items.size() == limit) {
                            more = true;
                            break;
                        }
                        String[] names = r.getArrayOfStrings(8);
                        last = new Item(r.getString(5), names == null ? List.of() : List.of(names), r.getLong(6), r.getLong(7));
                        items.add(last);
                    }
                    String next = more ? new Cursor(last.availableReplicas(), last.bytes(), last.handle()).encode() : null;
                    return new Report(minReplicas, scope, totals[0], totals[1], totals[2], totals[3], totals[4], limit, next, items);
                })
                .onFailure(e -> e instanceof PgException pg && "57014".equals(pg.getSqlState()))
                .transform(e -> new ProblemException(Problem.of(503, "REPORT_TIMEOUT",
                        "the report took longer than " + TIMEOUT + "; narrow it with scope or try again later")));
    }
}
