package io.ferry.rates.repository;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** What the network-cost matrix prices links from: their hourly transfer rollups, and measured throughputs. */
@ApplicationScoped
public class LinkCostSources {

    /** A link's finished files, their overhead (prepare and checksum) and transfer seconds, and their bytes. */
    public record Transfers(Long filesDone, Double overheadSeconds, Double transferSeconds, Long bytes) {
    }

    /** The latest measured throughput between two SEs, in bits/s. */
    public record Measured(Double throughputBps, OffsetDateTime at) {
    }

    /** Links and measurements are keyed by their SE pair. */
    public record Pair(String source, String destination) {
    }

    static final String TRANSFERS = "SELECT k1, k2, sum(files_done)::bigint, sum(prepare_s + checksum_s), sum(transfer_s), sum(bytes)::bigint "
            + "FROM rollup WHERE dim = 'link' AND bin_seconds = 3600 AND bin_start >= $1 AND k1 = ANY($2) AND k2 = ANY($3) GROUP BY 1, 2";

    static final String MEASURED = "SELECT DISTINCT ON (source, destination) source, destination, throughput_bps, measured_at "
            + "FROM measurement WHERE measured_at >= $1 AND source = ANY($2) AND destination = ANY($3) AND throughput_bps > 0 "
            + "ORDER BY source, destination, measured_at DESC";

    /** Every SE a link has been seen from or to: the link keys, which are few and never deleted (migration V7). */
    static final String SES = "SELECT k1 FROM rollup_key WHERE dim = 'link' UNION SELECT k2 FROM rollup_key WHERE dim = 'link' ORDER BY 1";

    final Pool pool;

    @Inject
    public LinkCostSources(Pool pool) {
        this.pool = pool;
    }

    /** The transfers since {@code since} of each link from one of {@code sources} to one of {@code destinations}. */
    public Uni<Map<Pair, Transfers>> transfers(OffsetDateTime since, List<String> sources, List<String> destinations) {
        return pool.preparedQuery(TRANSFERS).execute(args(since, sources, destinations)).map(rows -> {
            Map<Pair, Transfers> out = new HashMap<>();
            for (Row r : rows) {
                out.put(new Pair(r.getString(0), r.getString(1)), new Transfers(r.getLong(2), r.getDouble(3), r.getDouble(4), r.getLong(5)));
            }
            return out;
        });
    }

    /** The latest throughput measured since {@code since} from each of {@code sources} to each of {@code destinations}. */
    public Uni<Map<Pair, Measured>> measured(OffsetDateTime since, List<String> sources, List<String> destinations) {
        return pool.preparedQuery(MEASURED).execute(args(since, sources, destinations)).map(rows -> {
            Map<Pair, Measured> out = new HashMap<>();
            for (Row r : rows) {
                out.put(new Pair(r.getString(0), r.getString(1)), new Measured(r.getDouble(2), r.getOffsetDateTime(3)));
            }
            return out;
        });
    }

    /** The SEs of every link ever stored, sorted. */
    public Uni<List<String>> ses() {
        return pool.query(SES).execute().map(rows -> {
            List<String> out = new java.util.ArrayList<>();
            for (Row r : rows) {
                out.add(r.getString(0));
            }
            return out;
        });
    }

    private static Tuple args(OffsetDateTime since, List<String> sources, List<String> destinations) {
        return Tuple.of(since, sources.toArray(String[]::new), destinations.toArray(String[]::new));
    }
}
