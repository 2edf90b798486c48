package io.ferry.rates.repository;

import io.ferry.rates.api.ProbeRun;
import io.ferry.rates.api.ProbedLink;
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
 * The records of transfer-scheduler's link probes (activity {@value #ACTIVITY}), read through the partial index of
 * V12, which covers that activity only.
 */
@ApplicationScoped
public class ProbeRecords {

    /** The activity transfer-scheduler runs its probes under (its {@code ferry.scheduler.probes.activity} default). */
    public static final String ACTIVITY = "ferry-probe";

    /** A record's throughput: as sent, else from its bytes and transfer time (imported histories may lack it). */
    private static final String THROUGHPUT = "coalesce(throughput_bytes_per_s, "
            + "(bytes_transferred / nullif(extract(epoch FROM transfer_ended_at - transfer_started_at), 0))::float8)";

    /** The runs of link $1 -> $2 since $3, at most $4, each with the mean of the finished ones in the 12 hours up to it. */
    static final String SQL = "SELECT * FROM (SELECT completed_at, outcome, bytes_transferred, " + THROUGHPUT + ", "
            + "avg(" + THROUGHPUT + ") FILTER (WHERE outcome = 'FINISHED') OVER (ORDER BY completed_at "
            + "RANGE BETWEEN INTERVAL '12 hours' PRECEDING AND CURRENT ROW), error_code FROM transfer_record "
            + "WHERE activity = '" + ACTIVITY + "' AND source_se = $1 AND dest_se = $2 AND completed_at >= $3::timestamptz - INTERVAL '12 hours') s "
            + "WHERE completed_at >= $3 ORDER BY completed_at LIMIT $4";

    static final String LINKS = "SELECT source_se, dest_se, count(*), count(*) FILTER (WHERE outcome = 'FINISHED'), "
            + "avg(" + THROUGHPUT + ") FILTER (WHERE outcome = 'FINISHED') FROM transfer_record "
            + "WHERE activity = '" + ACTIVITY + "' AND completed_at >= $1 GROUP BY source_se, dest_se ORDER BY source_se, dest_se LIMIT $2";

    final Pool pool;

    @Inject
    public ProbeRecords(Pool pool) {
        this.pool = pool;
    }

    /** Every link with probe records since {@code since}, at most {@code max}. */
    public Uni<List<ProbedLink>> links(OffsetDateTime since, int max) {
        return pool.preparedQuery(LINKS).execute(Tuple.of(since, max)).map(rows -> {
            List<ProbedLink> out = new ArrayList<>();
            for (Row r : rows) {
                out.add(new ProbedLink(r.getString(0), r.getString(1), r.getLong(2), r.getLong(3), r.getDouble(4)));
            }
            return out;
        });
    }

    /** The probe runs of a link since {@code since}, oldest first, at most {@code max}. */
    public Uni<List<ProbeRun>> runs(String source, String destination, OffsetDateTime since, int max) {
        return pool.preparedQuery(SQL).execute(Tuple.of(source, destination, since, max)).map(rows -> {
            List<ProbeRun> runs = new ArrayList<>();
            for (Row r : rows) {
                runs.add(new ProbeRun(r.getOffsetDateTime(0), r.getString(1), r.getLong(2), r.getDouble(3), r.getDouble(4), r.getString(5)));
            }
            return runs;
        });
    }
}
