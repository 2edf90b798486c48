package io.ferry.scheduler.links;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

/** The optimizer's decisions as users read them: the latest per link, and one link's history. */
@ApplicationScoped
public class OptimizerDecisions {

    /** One decision, with what it saw (throughputs in bytes/s) and why it chose. */
    public record Decision(String sourceSe, String destSe, OffsetDateTime decidedAt, int previousActive, int active, double throughput,
                           double emaThroughput, Double successRate, int samples, int running, int queued, String rationale) {
    }

    private static final String COLUMNS = "source_se, dest_se, decided_at, previous, active, throughput, ema_throughput, success_rate, "
            + "samples, running, queued, rationale";

    final Pool pool;

    @Inject
    public OptimizerDecisions(Pool pool) {
        this.pool = pool;
    }

    public Uni<List<Decision>> current() {
        return pool.query("SELECT DISTINCT ON (source_se, dest_se) " + COLUMNS + " FROM optimizer_decision "
                + "ORDER BY source_se, dest_se, decided_at DESC, id DESC").execute().map(OptimizerDecisions::decisions);
    }

    public Uni<List<Decision>> evolution(String sourceSe, String destSe, int limit) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM optimizer_decision WHERE source_se = $1 AND dest_se = $2 "
                + "ORDER BY decided_at DESC, id DESC LIMIT $3").execute(Tuple.of(sourceSe, destSe, limit)).map(OptimizerDecisions::decisions);
    }

    private static List<Decision> decisions(RowSet<Row> rows) {
        List<Decision> out = new ArrayList<>();
        for (Row r : rows) {
            out.add(new Decision(r.getString(0), r.getString(1), r.getOffsetDateTime(2), r.getInteger(3), r.getInteger(4),
                    r.getDouble(5), r.getDouble(6), r.getDouble(7), r.getInteger(8), r.getInteger(9), r.getInteger(10), r.getString(11)));
        }
        return out;
    }
}
