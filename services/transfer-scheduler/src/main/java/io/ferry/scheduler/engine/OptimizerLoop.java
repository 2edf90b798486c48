package io.ferry.scheduler.engine;

import io.ferry.engineloop.EngineLoop;
import io.ferry.scheduler.config.SchedulerConfig;
import io.ferry.scheduler.db.Db;
import io.ferry.scheduler.db.Tx;
import io.ferry.scheduler.links.LinkOptimizer;
import io.ferry.scheduler.storage.SchedulingInputs;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Duration;

/**
 * Once per interval, for every adaptive link that moved or queued something: measures the round (throughput from
 * the bytes of attempts that ended in it, spread over their duration; success rate of its attempts), lets
 * {@link LinkOptimizer} decide the active target and stores the decision with its rationale. One replica decides
 * per round (a try-lock), the others skip.
 */
@ApplicationScoped
public class OptimizerLoop extends EngineLoop {

    static final long OPTIMIZER_LOCK = 0x4F5054L;

    private final SchedulerConfig config;
    private final Pool pool;

    @Inject
    OptimizerLoop(SchedulerConfig config, Pool pool) {
        this.config = config;
        this.pool = pool;
    }

    @Override
    public String name() {
        return "optimizer";
    }

    @Override
    protected Duration period() {
        return config.optimizer().interval();
    }

    @Override
    protected void pass() {
        double window = config.optimizer().interval().toMillis() / 1000.0;
        LinkOptimizer.Params params = new LinkOptimizer.Params(config.optimizer().emaAlpha(), config.optimizer().minSuccessRate(),
                config.optimizer().minGain(), config.optimizer().holdRounds());
        Tx.run(pool, c -> {
            Row lock = c.preparedQuery("SELECT pg_try_advisory_xact_lock($1)").execute(Tuple.of(OPTIMIZER_LOCK)).await().atMost(Db.WAIT)
                    .iterator().next();
            if (!lock.getBoolean(0)) {
                return null;
            }
            SchedulingInputs in = SchedulingInputs.load(c).await().atMost(Db.WAIT);
            var rows = c.preparedQuery("""
                    WITH since AS (SELECT now() - make_interval(secs => $1) AS t),
                    done AS (
                        SELECT source_se, dest_se, count(*) AS ok,
                               sum(bytes_transferred * extract(epoch FROM finish_time - greatest(start_time, (SELECT t FROM since)))
                                   / greatest(extract(epoch FROM finish_time - start_time), 0.001)) AS bytes
                        FROM transfer_file WHERE state = 'FINISHED' AND finish_time > (SELECT t FROM since) GROUP BY 1, 2),
                    bad AS (
                        SELECT source_se, dest_se, count(*) AS failed FROM (
                            SELECT f.source_se, f.dest_se FROM file_retry r JOIN transfer_file f ON f.file_id = r.file_id
                            WHERE r.datetime > (SELECT t FROM since) AND r.error_code NOT IN ('LEASE_EXPIRED', 'CANCELED')
                            UNION ALL
                            SELECT source_se, dest_se FROM transfer_file WHERE state = 'FAILED' AND finish_time > (SELECT t FROM since)
                              AND error_phase <> 'queue') x GROUP BY 1, 2),
                    load AS (
                        SELECT source_se, dest_se, count(*) FILTER (WHERE state = 'ACTIVE') AS running,
                               count(*) FILTER (WHERE state <> 'ACTIVE') AS queued
                        FROM transfer_file WHERE state IN ('SUBMITTED', 'STAGING', 'READY', 'ACTIVE') GROUP BY 1, 2),
                    links AS (SELECT source_se, dest_se FROM done UNION SELECT source_se, dest_se FROM bad UNION SELECT source_se, dest_se FROM load)
                    SELECT l.source_se, l.dest_se, coalesce(d.ok, 0), coalesce(d.bytes, 0), coalesce(b.failed, 0),
                           coalesce(ld.running, 0), coalesce(ld.queued, 0),
                           s.active_target, s.ema_throughput, s.best_active, s.best_ema, s.hold_rounds
                    FROM links l LEFT JOIN done d USING (source_se, dest_se) LEFT JOIN bad b USING (source_se, dest_se)
                    LEFT JOIN load ld USING (source_se, dest_se) LEFT JOIN link_state s USING (source_se, dest_se)
                    """).execute(Tuple.of(window)).await().atMost(Db.WAIT);
            for (Row r : rows) {
                String src = r.getString(0);
                String dst = r.getString(1);
                SchedulingInputs.Link link = in.link(src, dst, config.engine().defaultMinActive(), config.engine().defaultMaxActive());
                if (!link.adaptive()) {
                    continue;
                }
                long ok = r.getLong(2);
                long failed = r.getLong(4);
                int samples = (int) (ok + failed);
                LinkOptimizer.Observation o = new LinkOptimizer.Observation(r.getDouble(3) / window,
                        samples == 0 ? null : ok / (double) samples, samples, r.getLong(5).intValue(), r.getLong(6).intValue());
                LinkOptimizer.State state = r.getInteger(7) == null ? LinkOptimizer.State.initial(link.minActive())
                        : new LinkOptimizer.State(r.getInteger(7), r.getDouble(8), r.getInteger(9), r.getDouble(10), r.getInteger(11));
                LinkOptimizer.Decision d = LinkOptimizer.decide(state, o, link.minActive(), link.maxActive(), params, link.maxRate());
                LinkOptimizer.State n = d.next();
                c.preparedQuery("INSERT INTO link_state (source_se, dest_se, active_target, ema_throughput, best_active, best_ema, hold_rounds, updated_at) "
                                + "VALUES ($1, $2, $3, $4, $5, $6, $7, now()) ON CONFLICT (source_se, dest_se) DO UPDATE SET active_target = $3, "
                                + "ema_throughput = $4, best_active = $5, best_ema = $6, hold_rounds = $7, updated_at = now()")
                        .execute(Tuple.tuple().addString(src).addString(dst).addInteger(n.target()).addValue(n.ema()).addValue(n.bestActive())
                                .addValue(n.bestEma()).addInteger(n.holdRounds())).await().atMost(Db.WAIT);
                c.preparedQuery("INSERT INTO optimizer_decision (source_se, dest_se, previous, active, throughput, ema_throughput, success_rate, "
                                + "samples, queued, running, rationale) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)")
                        .execute(Tuple.tuple().addString(src).addString(dst).addInteger(d.previous()).addInteger(n.target())
                                .addDouble(o.throughput()).addDouble(d.ema()).addValue(o.successRate()).addInteger(samples)
                                .addInteger(o.queued()).addInteger(o.running()).addString(d.rationale())).await().atMost(Db.WAIT);
            }
            return null;
        });
    }
}
