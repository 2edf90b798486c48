package io.ferry.rates.service;

import io.ferry.problem.ProblemException;
import io.ferry.rates.api.Comparison;
import io.ferry.rates.api.Regression;
import io.ferry.rates.api.Side;
import io.ferry.rates.config.RatesConfig;
import io.ferry.rates.model.Names;
import io.ferry.rates.model.Stats;
import io.ferry.rates.model.Window;
import io.ferry.rates.repository.RawRecordReads;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Analyses over raw records: the rate of a link from a regression of cumulative bytes over completion time (how
 * sites estimated rates from a directory of arrivals), and before/after comparisons of per-file throughput.
 */
@ApplicationScoped
public class RecordAnalysis {

    final RawRecordReads reads;

    final RatesConfig config;

    @Inject
    public RecordAnalysis(RawRecordReads reads, RatesConfig config) {
        this.reads = reads;
        this.config = config;
    }

    @WithSpan
    public Uni<Regression> regression(String source, String destination, String from, String to) {
        require("source", source);
        require("destination", destination);
        OffsetDateTime f = time("from", from);
        OffsetDateTime t = time("to", to);
        if (!t.isAfter(f)) {
            throw ProblemException.badRequest("to", "must be after from");
        }
        Duration max = config.reads().maxWindow();
        if (Duration.between(f, t).compareTo(max) > 0) {
            throw ProblemException.badRequest("to", "at most " + Window.describe(max) + " after from");
        }
        int maxRows = config.reads().maxRows();
        return reads.finished(source, destination, f, t, maxRows + 1).map(rows -> {
            boolean truncated = rows.size() > maxRows;
            int n = Math.min(rows.size(), maxRows);
            if (n < 3) {
                throw ProblemException.unprocessable("TOO_FEW_TRANSFERS", "a regression needs at least 3 finished transfers, found " + n,
                        Map.of("n", n));
            }
            double[] x = new double[n];
            double[] y = new double[n];
            long cumulative = 0;
            OffsetDateTime first = null;
            int i = 0;
            for (RawRecordReads.Arrival r : rows) {
                if (i == n) {
                    break;
                }
                OffsetDateTime at = r.at();
                if (first == null) {
                    first = at;
                }
                cumulative += r.bytes();
                x[i] = Duration.between(first, at).toNanos() / 1e9;
                y[i] = cumulative;
                i++;
            }
            Stats.Fit fit = Stats.linear(x, y);
            return new Regression(source, destination, f, t, n, fit.slope(), fit.r2(), fit.intercept(), cumulative, truncated);
        });
    }

    /**
     * Per-file throughput of finished transfers in [at - window, at) against [at, at + window), for one link
     * ({@code source} and {@code destination}), every link touching an SE ({@code se}) or a site ({@code site}).
     * Every scope reads raw records through the per-link index: an SE's or a site's links come from the rollup keys.
     */
    @WithSpan
    public Uni<Comparison> compare(String source, String destination, String se, String site, String at, String window) {
        OffsetDateTime when = time("at", at);
        Duration w = Window.parse("window", window, "7d", config.reads().maxWindow());
        int maxLinks = config.reads().maxLinks();
        int perSide = config.reads().maxRows() / 2;
        String scope;
        Uni<List<RawRecordReads.Sample>> samples;
        boolean[] linksCut = {false};
        if (source != null || destination != null) {
            require("source", source);
            require("destination", destination);
            scope = "link " + source + " -> " + destination;
            samples = reads.linkSamples(source, destination, when.minus(w), when, when.plus(w), perSide + 1);
        } else if (se != null || site != null) {
            String key = se != null ? se : site;
            require(se != null ? "se" : "site", key);
            scope = se != null ? "links touching SE " + se : "links touching site " + site;
            samples = reads.linkHashes(se == null, key, maxLinks + 1).flatMap(hashes -> {
                linksCut[0] = hashes.size() > maxLinks;
                Integer[] kept = hashes.stream().limit(maxLinks).toArray(Integer[]::new);
                return kept.length == 0 ? Uni.createFrom().item(List.<RawRecordReads.Sample>of())
                        : reads.samplesTouching(se == null, kept, key, when.minus(w), when, when.plus(w), perSide + 1);
            });
        } else {
            throw ProblemException.badRequest("source", "give source and destination, se or site");
        }
        return samples.map(rows -> {
            List<RawRecordReads.Sample> before = new ArrayList<>();
            List<RawRecordReads.Sample> after = new ArrayList<>();
            for (RawRecordReads.Sample r : rows) {
                (r.at().isBefore(when) ? before : after).add(r);
            }
            boolean truncated = linksCut[0] || before.size() > perSide || after.size() > perSide;
            List<Double> b = nearest(before, when, perSide);
            List<Double> aft = nearest(after, when, perSide);
            Side sb = side(b, when.minus(w), when);
            Side sa = side(aft, when, when.plus(w));
            Stats.MannWhitney mw = Stats.mannWhitney(b, aft);
            Double ratio = sb.average() == null || sa.average() == null || sb.average() == 0 ? null : sa.average() / sb.average();
            String verdict;
            if (b.size() < 5 || aft.size() < 5) {
                verdict = "insufficient data";
            } else if (mw.pValue() < 0.05) {
                verdict = ratio != null && ratio > 1 ? "improved" : "degraded";
            } else {
                verdict = "no significant change";
            }
            return new Comparison(scope, when, window == null ? "7d" : window, sb, sa, ratio, mw.u(), mw.z(), mw.pValue(), verdict, truncated);
        });
    }

    /** The throughputs of the {@code n} rows completed nearest to {@code at}. */
    static List<Double> nearest(List<RawRecordReads.Sample> rows, OffsetDateTime at, int n) {
        if (rows.size() > n) {
            rows.sort(java.util.Comparator.comparing((RawRecordReads.Sample r) -> Duration.between(r.at(), at).abs()));
        }
        return rows.stream().limit(n).map(RawRecordReads.Sample::throughput).toList();
    }

    static Side side(List<Double> values, OffsetDateTime from, OffsetDateTime to) {
        if (values.isEmpty()) {
            return new Side(0, null, null, from, to);
        }
        return new Side(values.size(), values.stream().mapToDouble(Double::doubleValue).average().orElse(0),
                values.stream().mapToDouble(Double::doubleValue).max().orElse(0), from, to);
    }

    static void require(String field, String value) {
        if (value == null || value.isBlank()) {
            throw ProblemException.badRequest(field, "is required");
        }
        Names.queryName(field, value);
    }

    static OffsetDateTime time(String field, String value) {
        require(field, value);
        OffsetDateTime t;
        try {
            t = OffsetDateTime.parse(value);
        } catch (DateTimeParseException e) {
            throw ProblemException.badRequest(field, "not an ISO-8601 time with offset, e.g. 2026-11-01T12:00:00Z");
        }
        // Records lie in these years (RecordValidator); beyond them a window's end would not even be a time.
        if (t.getYear() < 1970 || t.getYear() > 9999) {
            throw ProblemException.badRequest(field, "must lie between the years 1970 and 9999");
        }
        return t;
    }
}
