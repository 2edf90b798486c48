package io.ferry.rates.repository;

import io.ferry.rates.model.Totals;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads rollups: totals per key pair over a span, or a time series for one pair. {@code by} is a stored dimension
 * (link, site, vo) or {@code group}, which folds site pairs into user-defined site groups at query time.
 */
@ApplicationScoped
public class RollupReader {

    public record Point(OffsetDateTime binStart, Totals totals) {
    }

    static final String SUMS = "sum(files_done)::bigint, sum(files_failed)::bigint, sum(files_canceled)::bigint, sum(bytes)::bigint, "
            + "sum(size_done)::bigint, sum(transfer_s), sum(prepare_s), sum(checksum_s), sum(queue_s), sum(throughput_sum), max(throughput_max)";

    /** The sums of one key's rollup rows, named as the columns they sum (so that {@link #SUMS} sums them again). */
    static final String KEY_SUMS = "sum(files_done) AS files_done, sum(files_failed) AS files_failed, sum(files_canceled) AS files_canceled, "
            + "sum(bytes) AS bytes, sum(size_done) AS size_done, sum(transfer_s) AS transfer_s, sum(prepare_s) AS prepare_s, "
            + "sum(checksum_s) AS checksum_s, sum(queue_s) AS queue_s, sum(throughput_sum) AS throughput_sum, "
            + "max(throughput_max) AS throughput_max";

    /** {@link #SUMS} over the per-key sums of {@link #perKey} (subquery {@code s}). */
    static final String SUMS_OF_KEYS = SUMS.replace("sum(", "sum(s.").replace("max(", "max(s.");

    /**
     * The rollup rows of key {@code r} in bins of $2 seconds from $3 to $4, summed per key (empty
     * {@code binExpression}) or per series bin. Aggregated inside the lateral subquery, so it cannot be flattened into
     * a join: every key's rows are read by the primary key (key_id, bin_seconds, bin_start). Rollup rows have no index
     * on time alone (V8); given a plain join, the planner scanned the whole table for a dimension's rows over a day or
     * more (after a 1 M-record backfill: 890 ms for a day of 5-minute link rows, 52 ms key by key).
     */
    static String perKey(String binExpression) {
        return " CROSS JOIN LATERAL (SELECT " + (binExpression.isEmpty() ? "" : binExpression + " AS t, ") + KEY_SUMS
                + " FROM rollup_bin b WHERE b.key_id = r.id AND b.bin_seconds = $2 AND b.bin_start >= $3 AND b.bin_start < $4"
                + (binExpression.isEmpty() ? " HAVING count(*) > 0" : " GROUP BY 1") + ") s";
    }

    final Pool pool;

    @Inject
    public RollupReader(Pool pool) {
        this.pool = pool;
    }

    public Uni<List<Totals>> totals(String by, int binSeconds, OffsetDateTime from, OffsetDateTime to, String k1, String k2) {
        double span = java.time.Duration.between(from, to).toSeconds();
        String keys = by.equals("group")
                ? "coalesce(gs.group_name, r.k1) AS a, coalesce(gd.group_name, r.k2) AS b"
                : "r.k1 AS a, r.k2 AS b";
        String joins = by.equals("group")
                ? " LEFT JOIN site_group_member gs ON gs.site = r.k1 LEFT JOIN site_group_member gd ON gd.site = r.k2" : "";
        List<Object> args = new ArrayList<>(Arrays.asList(by.equals("group") ? "site" : by, binSeconds, from, to));
        String filter = "";
        if (k1 != null) {
            args.add(k1);
            filter += by.equals("group") ? " AND coalesce(gs.group_name, r.k1) = $" + args.size() : " AND r.k1 = $" + args.size();
        }
        if (k2 != null) {
            args.add(k2);
            filter += by.equals("group") ? " AND coalesce(gd.group_name, r.k2) = $" + args.size() : " AND r.k2 = $" + args.size();
        }
        String sql = "SELECT " + keys + ", " + SUMS_OF_KEYS + " FROM rollup_key r" + joins
                + perKey("") + " WHERE r.dim = $1" + filter + " GROUP BY 1, 2 ORDER BY 1, 2";
        return pool.preparedQuery(sql).execute(Tuple.from(args)).map(rows -> {
            List<Totals> out = new ArrayList<>();
            for (Row row : rows) {
                out.add(totals(row, 2, row.getString(0), row.getString(1), span));
            }
            return out;
        });
    }

    /** One pair's series in bins of {@code seriesBinSeconds}, summed from stored bins of {@code storedBin}. */
    public Uni<List<Point>> series(String by, int storedBin, long seriesBinSeconds, OffsetDateTime from, OffsetDateTime to,
                                   String k1, String k2) {
        String sql = "SELECT s.t, " + SUMS_OF_KEYS + " FROM rollup_key r"
                + perKey("date_bin(make_interval(secs => $5), b.bin_start, TIMESTAMPTZ '2000-01-01 00:00:00+00')")
                + " WHERE r.dim = $1" + (k1 == null ? "" : " AND r.k1 = $6") + (k2 == null ? "" : " AND r.k2 = $" + (k1 == null ? 6 : 7))
                + " GROUP BY 1 ORDER BY 1";
        List<Object> args = new ArrayList<>(Arrays.asList(by, storedBin, from, to, (double) seriesBinSeconds));
        if (k1 != null) {
            args.add(k1);
        }
        if (k2 != null) {
            args.add(k2);
        }
        return pool.preparedQuery(sql).execute(Tuple.from(args)).map(rows -> {
            List<Point> out = new ArrayList<>();
            for (Row row : rows) {
                out.add(new Point(row.getOffsetDateTime(0), totals(row, 1, k1, k2, seriesBinSeconds)));
            }
            return out;
        });
    }

    static Totals totals(Row row, int first, String a, String b, double span) {
        return new Totals(a, b, row.getLong(first), row.getLong(first + 1), row.getLong(first + 2), row.getLong(first + 3),
                row.getLong(first + 4), row.getDouble(first + 5), row.getDouble(first + 6), row.getDouble(first + 7),
                row.getDouble(first + 8), row.getDouble(first + 9), row.getDouble(first + 10), span);
    }
}
