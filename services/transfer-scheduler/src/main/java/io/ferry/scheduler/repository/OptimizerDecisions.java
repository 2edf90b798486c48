package io.ferry.scheduler.repository;

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

    /** One decision, with what it saw and why it chose. */
    public record DecisionView(String source_se, String dest_se, OffsetDateTime decided_at, int previous_active, int active,
                               double throughput_bytes_per_s, double ema_throughput_bytes_per_s, Double success_rate, int samples,
                               int running, int queued, String rationale) {
    }

    private static final String COLUMNS = "source_se, dest_se, decided_at, previous, active, throughput, ema_throughput, success_rate, "
            + "samples, running, queued, rationale";

    @Inject
    Pool pool;

    public Uni<List<DecisionView>> current() {
        return pool.query("SELECT DISTINCT ON (source_se, dest_se) " + COLUMNS + " FROM optimizer_decision "
                + "ORDER BY source_se, dest_se, decided_at DESC, id DESC").execute().map(OptimizerDecisions::views);
    }

    public Uni<List<DecisionView>> evolution(String sourceSe, String destSe, int limit) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM optimizer_decision WHERE source_se = $1 AND dest_se = $2 "
                + "ORDER BY decided_at DESC, id DESC LIMIT $3").execute(Tuple.of(sourceSe, destSe, limit)).map(OptimizerDecisions::views);
    }

    private static List<DecisionView> views(RowSet<Row> rows) {
        List<DecisionView> out = new ArrayList<>();
        for (Row r : rows) {
            out.add(new DecisionView(r.getString(0), r.getString(1), r.getOffsetDateTime(2), r.getInteger(3), r.getInteger(4),
                    r.getDouble(5), r.getDouble(6), r.getDouble(7), r.getInteger(8), r.getInteger(9), r.getInteger(10), r.getString(11)));
        }
        return out;
    }
}
