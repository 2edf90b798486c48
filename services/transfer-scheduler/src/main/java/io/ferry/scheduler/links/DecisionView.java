package io.ferry.scheduler.links;


import java.time.OffsetDateTime;

/** One optimizer decision as FTS3's optimizer views name its fields. */
public record DecisionView(String source_se, String dest_se, OffsetDateTime decided_at, int previous_active, int active,
                           double throughput_bytes_per_s, double ema_throughput_bytes_per_s, Double success_rate, int samples,
                           int running, int queued, String rationale) {

    static DecisionView of(OptimizerDecisions.Decision d) {
        return new DecisionView(d.sourceSe(), d.destSe(), d.decidedAt(), d.previousActive(), d.active(), d.throughput(), d.emaThroughput(),
                d.successRate(), d.samples(), d.running(), d.queued(), d.rationale());
    }
}
