package io.ferry.rates.repository;

import io.ferry.rates.api.Measurement;
import io.ferry.rates.api.PeerLatest;
import io.ferry.rates.api.StoredMeasurement;
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

/** Network measurements as stored: one row per source, destination, tool and time. */
@ApplicationScoped
public class MeasurementStore {

    static final String INSERT = "INSERT INTO measurement (source, destination, tool, measured_at, throughput_bps, rtt_ms, loss, retransmits, streams) "
            + "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (source, destination, tool, measured_at) DO NOTHING";

    /**
     * The latest measurement from $1 to each peer (either direction) since $2, at most $3 peers. Each direction is
     * read through its index (source: measurement_pair_idx; destination: V11's measurement_destination_idx).
     */
    static final String LATEST = "SELECT DISTINCT ON (peer) peer, rtt_ms, throughput_bps, measured_at, tool FROM ("
            + "SELECT destination AS peer, rtt_ms, throughput_bps, measured_at, tool FROM measurement WHERE source = $1 AND measured_at >= $2 "
            + "UNION ALL SELECT source AS peer, rtt_ms, throughput_bps, measured_at, tool FROM measurement WHERE destination = $1 AND measured_at >= $2"
            + ") m ORDER BY peer, measured_at DESC LIMIT $3";

    final Pool pool;

    @Inject
    public MeasurementStore(Pool pool) {
        this.pool = pool;
    }

    /** Stores the measurements not stored yet; answers how many were new. */
    public Uni<Integer> insert(List<Measurement> measurements) {
        List<Tuple> batch = measurements.stream().map(m -> Tuple.from(Arrays.asList(m.source(), m.destination(), m.tool(), m.time(),
                m.throughput_bps(), m.rtt_ms(), m.loss(), m.retransmits(), m.streams()))).toList();
        return pool.preparedQuery(INSERT).executeBatch(batch).map(rows -> {
            int inserted = 0;
            for (var rs = rows; rs != null; rs = rs.next()) {
                inserted += rs.rowCount();
            }
            return inserted;
        });
    }

    /** The latest measurement between {@code host} and each of its peers since {@code since}, at most {@code maxPeers}. */
    public Uni<List<PeerLatest>> latest(String host, OffsetDateTime since, int maxPeers) {
        return pool.preparedQuery(LATEST).execute(Tuple.of(host, since, maxPeers)).map(rows -> {
            List<PeerLatest> peers = new ArrayList<>();
            for (Row r : rows) {
                peers.add(new PeerLatest(r.getString(0), r.getDouble(1), r.getDouble(2), r.getOffsetDateTime(3), r.getString(4)));
            }
            return peers;
        });
    }

    /**
     * The latest {@code limit} measurements since {@code since}, optionally of one source and/or destination. The
     * statement names only the filters given, so that each combination is read through an index (V11) newest first.
     */
    public Uni<List<StoredMeasurement>> list(String source, String destination, OffsetDateTime since, int limit) {
        List<Object> args = new ArrayList<>();
        StringBuilder where = new StringBuilder(" WHERE measured_at >= $1");
        args.add(since);
        if (source != null) {
            args.add(source);
            where.append(" AND source = $").append(args.size());
        }
        if (destination != null) {
            args.add(destination);
            where.append(" AND destination = $").append(args.size());
        }
        args.add(limit);
        String sql = "SELECT id, source, destination, tool, measured_at, throughput_bps, rtt_ms, loss, retransmits, streams FROM measurement"
                + where + " ORDER BY measured_at DESC LIMIT $" + args.size();
        return pool.preparedQuery(sql).execute(Tuple.from(args)).map(rows -> {
            List<StoredMeasurement> out = new ArrayList<>();
            for (Row r : rows) {
                out.add(new StoredMeasurement(r.getLong(0), new Measurement(r.getString(1), r.getString(2), r.getString(3), r.getOffsetDateTime(4),
                        r.getDouble(5), r.getDouble(6), r.getDouble(7), r.getLong(8), r.getInteger(9))));
            }
            return out;
        });
    }
}
