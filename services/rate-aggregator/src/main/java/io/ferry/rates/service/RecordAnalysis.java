package io.ferry.rates.service;

import io.ferry.problem.ProblemException;
import io.ferry.rates.model.Stats;
import io.ferry.rates.model.Window;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
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

    public record Regression(String source, String destination, OffsetDateTime from, OffsetDateTime to, int n,
                             double bytesPerSecond, double r2, double intercept, long totalBytes) {
    }

    public record Side(int n, Double average, Double peak, OffsetDateTime from, OffsetDateTime to) {
    }

    public record Comparison(String scope, OffsetDateTime at, String window, Side before, Side after, Double ratio,
                             double mannWhitneyU, double z, double pValue, String verdict) {
    }

    @Inject
    Pool pool;

    /**
     * Records of the link $1 -> $2, found through the index on the link's hash (V6; and completion day since V9, see
     * {@link #linkDays}); the names settle which link a shared hash belongs to.
     */
    static final String LINK = "hashtext(source_se || ' ' || dest_se) = hashtext($1::text || ' ' || $2::text) AND source_se = $1 AND dest_se = $2";

    /**
     * The days of completion times from parameter {@code from} to {@code to}, as the per-link index (V9) keys them:
     * implied by the time range itself, they give the index its bounds.
     */
    static String linkDays(int from, int to) {
        String day = "date_bin('1 day', completed_at, TIMESTAMPTZ '2000-01-01 00:00:00+00')";
        return " AND " + day + " >= date_bin('1 day', $" + from + "::timestamptz, TIMESTAMPTZ '2000-01-01 00:00:00+00') AND "
                + day + " <= $" + to + "::timestamptz";
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
        String sql = "SELECT completed_at, bytes_transferred FROM transfer_record WHERE " + LINK + linkDays(3, 4) + " "
                + "AND outcome = 'FINISHED' AND completed_at >= $3 AND completed_at <= $4 ORDER BY completed_at";
        return pool.preparedQuery(sql).execute(Tuple.of(source, destination, f, t)).map(rows -> {
            int n = rows.rowCount();
            if (n < 3) {
                throw ProblemException.unprocessable("TOO_FEW_TRANSFERS", "a regression needs at least 3 finished transfers, found " + n,
                        Map.of("n", n));
            }
            double[] x = new double[n];
            double[] y = new double[n];
            long cumulative = 0;
            OffsetDateTime first = null;
            int i = 0;
            for (Row r : rows) {
                OffsetDateTime at = r.getOffsetDateTime(0);
                if (first == null) {
                    first = at;
                }
                cumulative += r.getLong(1);
                x[i] = Duration.between(first, at).toNanos() / 1e9;
                y[i] = cumulative;
                i++;
            }
            Stats.Fit fit = Stats.linear(x, y);
            return new Regression(source, destination, f, t, n, fit.slope(), fit.r2(), fit.intercept(), cumulative);
        });
    }

    /**
     * Per-file throughput of finished transfers in [at - window, at) against [at, at + window), for one link
     * ({@code source} and {@code destination}), every link touching an SE ({@code se}) or a site ({@code site}).
     */
    @WithSpan
    public Uni<Comparison> compare(String source, String destination, String se, String site, String at, String window) {
        OffsetDateTime when = time("at", at);
        Duration w = Window.parse("window", window, "7d");
        String scope;
        String where;
        Tuple args;
        if (source != null || destination != null) {
            require("source", source);
            require("destination", destination);
            scope = "link " + source + " -> " + destination;
            where = LINK + linkDays(4, 5);
            args = Tuple.of(source, destination);
        } else if (se != null) {
            scope = "links touching SE " + se;
            where = "(source_se = $1 OR dest_se = $1) AND $2::text IS NULL";
            args = Tuple.of(se, null);
        } else if (site != null) {
            scope = "links touching site " + site;
            where = "(source_site = $1 OR dest_site = $1) AND $2::text IS NULL";
            args = Tuple.of(site, null);
        } else {
            throw ProblemException.badRequest("source", "give source and destination, se or site");
        }
        String sql = "SELECT completed_at >= $3 AS after, coalesce(throughput_bytes_per_s, bytes_transferred / "
                + "nullif(extract(epoch FROM transfer_ended_at - transfer_started_at), 0)) AS thr FROM transfer_record "
                + "WHERE " + where + " AND outcome = 'FINISHED' AND completed_at >= $4 AND completed_at < $5";
        args.addOffsetDateTime(when).addOffsetDateTime(when.minus(w)).addOffsetDateTime(when.plus(w));
        return pool.preparedQuery(sql).execute(args).map(rows -> {
            List<Double> before = new ArrayList<>();
            List<Double> after = new ArrayList<>();
            for (Row r : rows) {
                Double thr = r.getDouble(1);
                if (thr != null) {
                    (r.getBoolean(0) ? after : before).add(thr);
                }
            }
            Side b = side(before, when.minus(w), when);
            Side a = side(after, when, when.plus(w));
            Stats.MannWhitney mw = Stats.mannWhitney(before, after);
            Double ratio = b.average() == null || a.average() == null || b.average() == 0 ? null : a.average() / b.average();
            String verdict;
            if (before.size() < 5 || after.size() < 5) {
                verdict = "insufficient data";
            } else if (mw.pValue() < 0.05) {
                verdict = ratio != null && ratio > 1 ? "improved" : "degraded";
            } else {
                verdict = "no significant change";
            }
            return new Comparison(scope, when, window == null ? "7d" : window, b, a, ratio, mw.u(), mw.z(), mw.pValue(), verdict);
        });
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
    }

    static OffsetDateTime time(String field, String value) {
        require(field, value);
        try {
            return OffsetDateTime.parse(value);
        } catch (DateTimeParseException e) {
            throw ProblemException.badRequest(field, "not an ISO-8601 time with offset, e.g. 2026-11-01T12:00:00Z");
        }
    }
}
