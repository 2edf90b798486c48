package io.ferry.rates.service;

import io.ferry.problem.ProblemException;
import io.ferry.rates.api.ProbeSeriesView;
import io.ferry.rates.api.ProbedLink;
import io.ferry.rates.model.Window;
import io.ferry.rates.repository.ProbeRecords;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;

/**
 * A link's probe series: the records of transfer-scheduler's link probes, one per run, each with the mean
 * throughput of the finished ones in the 12 hours up to it, as SONAR plotted them.
 */
@ApplicationScoped
public class ProbeSeries {

    static final Duration LONGEST = Duration.ofDays(30);
    static final int MAX_RUNS = 20_000;
    static final int MAX_LINKS = 200;

    final ProbeRecords records;

    @Inject
    public ProbeSeries(ProbeRecords records) {
        this.records = records;
    }

    /** Every link with probe records within the window (at most 30 days). */
    public Uni<List<ProbedLink>> links(String window) {
        Duration w = Window.parse("window", window, "7d", LONGEST);
        return records.links(OffsetDateTime.now(ZoneOffset.UTC).minus(w), MAX_LINKS);
    }

    public Uni<ProbeSeriesView> series(String source, String destination, String window) {
        if (source == null || source.isBlank() || destination == null || destination.isBlank()) {
            throw ProblemException.badRequest("source", "give the link as source=SE&destination=SE");
        }
        Duration w = Window.parse("window", window, "7d", LONGEST);
        OffsetDateTime since = OffsetDateTime.now(ZoneOffset.UTC).minus(w);
        return records.runs(source, destination, since, MAX_RUNS).map(runs -> new ProbeSeriesView(source, destination, Window.describe(w), runs));
    }
}
