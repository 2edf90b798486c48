package io.ferry.rates.repository;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads of raw transfer records for the analyses: a link's finished transfers in order, and per-file throughputs
 * either side of a time. Every read goes through the per-link index; an SE's or a site's links come from the
 * rollup keys.
 */
@ApplicationScoped
public class RawRecordReads {

    /** A finished transfer: when it completed and the bytes it moved. */
    public record Arrival(OffsetDateTime at, long bytes) {
    }

    /** A finished transfer's per-file throughput (bytes/s) and when it completed. */
    public record Sample(OffsetDateTime at, double throughput) {
    }

    /**
     * Records of the link $1 -> $2, found through the index on the link's hash (V6; and completion day since V9, see
     * {@link #linkDays}); the names settle which link a shared hash belongs to.
     */
    public static final String LINK = "hashtext(source_se || ' ' || dest_se) = hashtext($1::text || ' ' || $2::text) AND source_se = $1 AND dest_se = $2";

    /**
     * Records of any of the links whose hashes are $1 (the same index as {@link #LINK}) that touch $2: as an SE
     * ({@code column} source_se/dest_se) or a site (source_site/dest_site).
     */
    public static String links(String sourceColumn, String destColumn) {
        return "hashtext(source_se || ' ' || dest_se) = ANY($1::int[]) AND (" + sourceColumn + " = $2 OR " + destColumn + " = $2)";
    }

    /** The hashes of the links touching SE $1, from the rollup keys (a few rows; no raw record is read). */
    static final String SE_LINKS = "SELECT hashtext(k1 || ' ' || k2) FROM rollup_key WHERE dim = 'link' AND (k1 = $1 OR k2 = $1) LIMIT $2";

    /** The hashes of the links touching an SE of site $1 (the SEs a site has are keys of dimension 'se' since V11). */
    static final String SITE_LINKS = "SELECT hashtext(k1 || ' ' || k2) FROM rollup_key WHERE dim = 'link' AND "
            + "(k1 IN (SELECT k1 FROM rollup_key WHERE dim = 'se' AND k2 = $1) OR k2 IN (SELECT k1 FROM rollup_key WHERE dim = 'se' AND k2 = $1)) LIMIT $2";

    /**
     * The days of completion times from parameter {@code from} to {@code to}, as the per-link index (V9) keys them:
     * implied by the time range itself, they give the index its bounds.
     */
    static String linkDays(int from, int to) {
        String day = "date_bin('1 day', completed_at, TIMESTAMPTZ '2000-01-01 00:00:00+00')";
        return " AND " + day + " >= date_bin('1 day', $" + from + "::timestamptz, TIMESTAMPTZ '2000-01-01 00:00:00+00') AND "
                + day + " <= $" + to + "::timestamptz";
    }

    /** The finished transfers of link $1 -> $2 in [$3, $4], the first $5 by completion time. */
    static final String REGRESSION = "SELECT completed_at, bytes_transferred FROM transfer_record WHERE " + LINK + linkDays(3, 4)
            + " AND outcome = 'FINISHED' AND completed_at >= $3 AND completed_at <= $4 ORDER BY completed_at LIMIT $5";

    static final String THROUGHPUT = "coalesce(throughput_bytes_per_s, bytes_transferred / nullif(extract(epoch FROM transfer_ended_at - transfer_started_at), 0))";

    /**
     * Per-file throughput of the finished transfers matching {@code scope} (which uses $1 and $2) in [$3, $4) and
     * [$4, $5): on each side the $6 nearest to $4, so that a cut answer still compares like with like.
     */
    static String compareSql(String scope) {
        String side = "SELECT completed_at, " + THROUGHPUT + " AS thr FROM transfer_record WHERE " + scope + " AND outcome = 'FINISHED' AND "
                + THROUGHPUT + " IS NOT NULL AND ";
        return "(" + side + "completed_at >= $3 AND completed_at < $4" + linkDays(3, 4) + " ORDER BY completed_at DESC LIMIT $6) UNION ALL ("
                + side + "completed_at >= $4 AND completed_at < $5" + linkDays(4, 5) + " ORDER BY completed_at LIMIT $6)";
    }

    final Pool pool;

    @Inject
    public RawRecordReads(Pool pool) {
        this.pool = pool;
    }

    /** The finished transfers of link {@code source -> destination} in [from, to], the first {@code limit} by completion time. */
    public Uni<List<Arrival>> finished(String source, String destination, OffsetDateTime from, OffsetDateTime to, int limit) {
        return pool.preparedQuery(REGRESSION).execute(Tuple.of(source, destination, from, to, limit)).map(rows -> {
            List<Arrival> out = new ArrayList<>(rows.rowCount());
            for (Row r : rows) {
                out.add(new Arrival(r.getOffsetDateTime(0), r.getLong(1)));
            }
            return out;
        });
    }

    /** The hashes of at most {@code limit} links touching SE {@code key}, or an SE of site {@code key}. */
    public Uni<List<Integer>> linkHashes(boolean site, String key, int limit) {
        return pool.preparedQuery(site ? SITE_LINKS : SE_LINKS).execute(Tuple.of(key, limit)).map(rows -> {
            List<Integer> hashes = new ArrayList<>();
            rows.forEach(r -> hashes.add(r.getInteger(0)));
            return hashes;
        });
    }

    /** Throughputs of link {@code source -> destination} in [from, at) and [at, to): on each side the {@code perSide} nearest to {@code at}. */
    public Uni<List<Sample>> linkSamples(String source, String destination, OffsetDateTime from, OffsetDateTime at, OffsetDateTime to,
                                         int perSide) {
        return samples(compareSql(LINK), Tuple.of(source, destination), from, at, to, perSide);
    }

    /**
     * Throughputs of the links hashed {@code hashes} that touch SE {@code key} (or, with {@code site}, an SE of site
     * {@code key}), in [from, at) and [at, to): on each side the {@code perSide} nearest to {@code at}.
     */
    public Uni<List<Sample>> samplesTouching(boolean site, Integer[] hashes, String key, OffsetDateTime from, OffsetDateTime at,
                                             OffsetDateTime to, int perSide) {
        String scope = site ? links("source_site", "dest_site") : links("source_se", "dest_se");
        return samples(compareSql(scope), Tuple.of(hashes, key), from, at, to, perSide);
    }

    private Uni<List<Sample>> samples(String sql, Tuple scope, OffsetDateTime from, OffsetDateTime at, OffsetDateTime to, int perSide) {
        return pool.preparedQuery(sql).execute(scope.addOffsetDateTime(from).addOffsetDateTime(at).addOffsetDateTime(to).addInteger(perSide))
                .map(rows -> {
                    List<Sample> out = new ArrayList<>(rows.rowCount());
                    for (Row r : rows) {
                        out.add(new Sample(r.getOffsetDateTime(0), r.getDouble(1)));
                    }
                    return out;
                });
    }
}
