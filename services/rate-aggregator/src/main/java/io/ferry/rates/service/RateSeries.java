package io.ferry.rates.service;

import io.ferry.problem.ProblemException;
import io.ferry.rates.api.Backlog;
import io.ferry.rates.api.Bin;
import io.ferry.rates.api.RateSeriesView;
import io.ferry.rates.api.Spike;
import io.ferry.rates.config.RatesConfig;
import io.ferry.rates.model.Names;
import io.ferry.rates.model.Stats;
import io.ferry.rates.model.Totals;
import io.ferry.rates.model.Window;
import io.ferry.rates.repository.RollupReader;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Throughput over time for one link (or site pair, or VO/activity): average and peak per bin, the top links by
 * bytes, spikes (bins above k x the rolling median rate) and backlog periods (runs of bins whose files waited
 * in the queue far longer than usual).
 */
@ApplicationScoped
public class RateSeries {

    static final int ROLLING_HALF_WIDTH = 12;

    final RollupReader rollups;

    final RatesConfig config;

    @Inject
    public RateSeries(RollupReader rollups, RatesConfig config) {
        this.rollups = rollups;
        this.config = config;
    }

    @WithSpan
    public Uni<RateSeriesView> series(String by, String source, String destination, String window, String bin, Integer top, Double k) {
        String dim = LinkQueries.dimension(by);
        if (dim.equals("group")) {
            throw ProblemException.badRequest("by", "series are kept per link, site pair or VO/activity");
        }
        Names.queryName("source", source);
        Names.queryName("destination", destination);
        Duration w = Window.parse("window", window, "7d", config.reads().maxWindow());
        Duration b = Window.parse("bin", bin, "1h");
        int stored = Window.storedBinFor("bin", b);
        if (w.toSeconds() / b.toSeconds() > 20_000) {
            throw ProblemException.badRequest("bin", "too many bins for the window; choose a larger bin");
        }
        double factor = k == null ? 3.0 : k;
        if (factor <= 1) {
            throw ProblemException.badRequest("k", "a spike factor must be above 1");
        }
        int n = top == null ? 5 : top;
        if (n < 0 || n > 100) {
            throw ProblemException.badRequest("top", "between 0 and 100");
        }
        OffsetDateTime to = LinkQueries.ceil(OffsetDateTime.now(ZoneOffset.UTC), (int) Math.min(b.toSeconds(), 86400));
        OffsetDateTime from = to.minus(w);
        Uni<List<RollupReader.Point>> points = rollups.series(dim, stored, b.toSeconds(), from, to, source, destination);
        Uni<List<Totals>> topLinks = n == 0 ? Uni.createFrom().item(List.of())
                : rollups.totals(dim, LinkQueries.binFor(w), from, to, null, null)
                .map(rows -> rows.stream().sorted(Comparator.comparingLong(Totals::bytes).reversed()).limit(n).toList());
        return points.flatMap(ps -> topLinks.map(tops -> {
            List<Bin> bins = ps.stream().map(RateSeries::bin).toList();
            long totalBytes = bins.stream().mapToLong(Bin::bytes).sum();
            double peak = bins.stream().map(Bin::rate).filter(java.util.Objects::nonNull).mapToDouble(Double::doubleValue).max().orElse(0);
            return new RateSeriesView(dim, source, destination, window == null ? "7d" : window, bin == null ? "1h" : bin,
                    totalBytes / (double) w.toSeconds(), peak, bins, spikes(bins, factor), backlogs(bins), tops);
        }));
    }

    static List<Spike> spikes(List<Bin> bins, double k) {
        List<Spike> out = new ArrayList<>();
        double[] rates = bins.stream().mapToDouble(x -> x.rate() == null ? 0 : x.rate()).toArray();
        for (int i = 0; i < rates.length; i++) {
            int lo = Math.max(0, i - ROLLING_HALF_WIDTH);
            int hi = Math.min(rates.length, i + ROLLING_HALF_WIDTH + 1);
            double median = Stats.median(java.util.Arrays.copyOfRange(rates, lo, hi));
            if (median > 0 && rates[i] > k * median) {
                out.add(new Spike(bins.get(i).start(), rates[i], median, rates[i] / median));
            }
        }
        return out;
    }

    /** Runs of bins whose average queue wait exceeds three times the series' median wait (and a minute). */
    static List<Backlog> backlogs(List<Bin> bins) {
        double[] waits = bins.stream().filter(x -> x.avgQueueSeconds() != null).mapToDouble(Bin::avgQueueSeconds).toArray();
        double threshold = Math.max(60, 3 * Stats.median(waits));
        List<Backlog> out = new ArrayList<>();
        OffsetDateTime start = null;
        OffsetDateTime last = null;
        double worst = 0;
        for (Bin x : bins) {
            boolean backlogged = x.avgQueueSeconds() != null && x.avgQueueSeconds() > threshold;
            if (backlogged) {
                if (start == null) {
                    start = x.start();
                    worst = 0;
                }
                last = x.start();
                worst = Math.max(worst, x.avgQueueSeconds());
            } else if (start != null) {
                out.add(new Backlog(start, last, worst));
                start = null;
            }
        }
        if (start != null) {
            out.add(new Backlog(start, last, worst));
        }
        return out;
    }

    static Bin bin(RollupReader.Point p) {
        Totals t = p.totals();
        return new Bin(p.binStart(), t.filesDone(), t.filesFailed(), t.bytes(), t.rate(), t.avgFileThroughput(),
                t.peakFileThroughput(), t.efficiency(), t.overheadRatio(), t.avgQueueSeconds());
    }
}
