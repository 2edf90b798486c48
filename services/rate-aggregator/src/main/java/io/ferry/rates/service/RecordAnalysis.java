package io.ferry.rates.service;

import io.ferry.problem.ProblemException;
import io.ferry.rates.config.RatesConfig;
import io.ferry.rates.model.Names;
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

    /** {@code truncated}: more finished transfers lie in the range than one answer reads; the fit is of the first ones. */
    public record Regression(String source, String destination, OffsetDateTime from, OffsetDateTime to, int n,
                             double bytesPerSecond, double r2, double intercept, long totalBytes, boolean truncated) {
    }

    public record Side(int n, Double average, Double peak, OffsetDateTime from, OffsetDateTime to) {
    }

    /**
     * {@code truncated}: a side held more transfers than one answer reads (or the SE or site more links), so each side
     * is the transfers nearest to {@code at}.
     */
    public record Comparison(String scope, OffsetDateTime at, String window, Side before, Side after, Double ratio,
                             double mannWhitneyU, double z, double pValue, String verdict, boolean truncated) {
    }

    @Inject
    Pool pool;

    @Inject
    RatesConfig config;

    /**
     * Records of the link $1 -> $2, found through the index on the link's hash (V6; and completion day since V9, see
     * {@link #linkDays}); the names settle which link a shared hash belongs to.
     */
    static final String LINK = "hashtext(source_se || ' ' || dest_se) = hashtext($1::text || ' ' || $2::text) AND source_se = $1 AND dest_se = $2";

    /**
     * Records of any of the links whose hashes are $1 (the same index as {@link #LINK}) that touch $2: as an SE
     * ({@code column} source_se/dest_se) or a site (source_site/dest_site).
     */
    static String links(String sourceColumn, String destColumn) {
        return "hashtext(source_se || ' ' || dest_se) = ANY($1::int[]) AND (" + sourceColumn + " = $2 OR " + destColumn + " = $2)";
    }

    /** The hashes of the links touching SE $1, from the rollup keys (a few rows; no raw record is read). */
    static final String SE_LINKS = "SELECT hashtext(k1 || ' ' || k2) FROM rollup_key WHERE dim = 'link' AND (k1 = $1 OR k2 = $1) LIMIT $2";

    /** The hashes of the links touching an SE of site $1 (the SEs a site has are keys of dimension 'se' since V11). */
    static final String SITE_LINKS = "SELECT hashtext(k1 || ' ' || k2) FROM rollup_key WHERE dim = 'link' AND "
            + "(k1 IN (SELECT k1 FROM rollup_key WHERE dim = 'se' AND k2 = $1) OR k2 IN (SELECT k1 FROM rollup_key WHERE dim = 'se' AND k2 = $1)) LIMIT $2";

    /**
     * The days of completion times from parameter {@code from} to {@code to}, as the per-link index (V9) keys them:
     * implied by the time range itself, they give the index its bounds.
     */
    static String linkDays(int from, int to) {
        String day = "date_bin('1 day', completed_at, TIMESTAMPTZ '2000-01-01 00:00:00+00')";
        return " AND " + day + " >= date_bin('1 day', $" + from + "::timestamptz, TIMESTAMPTZ '2000-01-01 00:00:00+00') AND "
                + day + " <= $" + to + "::timestamptz";
    }

    /** The finished transfers of link $1 -> $2 in [$3, $4], the first $5 by completion time. */
    static final String REGRESSION = "SELECT completed_at, bytes_transferred FROM transfer_record WHERE " + LINK + linkDays(3, 4)
            + " AND outcome = 'FINISHED' AND completed_at >= $3 AND completed_at <= $4 ORDER BY completed_at LIMIT $5";

    static final String THROUGHPUT = "coalesce(throughput_bytes_per_s, bytes_transferred / nullif(extract(epoch FROM transfer_ended_at - transfer_started_at), 0))";

    /**
     * Per-file throughput of the finished transfers matching {@code scope} (which uses $1 and $2) in [$3, $4) and
     * [$4, $5): on each side the $6 nearest to $4, so that a cut answer still compares like with like.
     */
    static String compareSql(String scope) {
        String side = "SELECT completed_at, " + THROUGHPUT + " AS thr FROM transfer_record WHERE " + scope + " AND outcome = 'FINISHED' AND "
                + THROUGHPUT + " IS NOT NULL AND ";
        return "(" + side + "completed_at >= $3 AND completed_at < $4" + linkDays(3, 4) + " ORDER BY completed_at DESC LIMIT $6) UNION ALL ("
                + side + "completed_at >= $4 AND completed_at < $5" + linkDays(4, 5) + " ORDER BY completed_at LIMIT $6)";
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
        return pool.preparedQuery(REGRESSION).execute(Tuple.of(source, destination, f, t, maxRows + 1)).map(rows -> {
            boolean truncated = rows.rowCount() > maxRows;
            int n = Math.min(rows.rowCount(), maxRows);
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
                if (i == n) {
                    break;
                }
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
        String scope;
        Uni<Tuple> args;
        boolean[] linksCut = {false};
        if (source != null || destination != null) {
            require("source", source);
            require("destination", destination);
            scope = "link " + source + " -> " + destination;
            args = Uni.createFrom().item(Tuple.of(source, destination));
        } else if (se != null || site != null) {
            String key = se != null ? se : site;
            require(se != null ? "se" : "site", key);
            scope = se != null ? "links touching SE " + se : "links touching site " + site;
            args = pool.preparedQuery(se != null ? SE_LINKS : SITE_LINKS).execute(Tuple.of(key, maxLinks + 1)).map(rows -> {
                List<Integer> hashes = new ArrayList<>();
                rows.forEach(r -> hashes.add(r.getInteger(0)));
                linksCut[0] = hashes.size() > maxLinks;
                return Tuple.of(hashes.stream().limit(maxLinks).toArray(Integer[]::new), key);
            });
        } else {
            throw ProblemException.badRequest("source", "give source and destination, se or site");
        }
        String sql = compareSql(source != null ? LINK : se != null ? links("source_se", "dest_se") : links("source_site", "dest_site"));
        int perSide = config.reads().maxRows() / 2;
        return args.flatMap(a -> a.getValue(0) instanceof Integer[] hashes && hashes.length == 0
                ? Uni.createFrom().item(List.<Row>of())
                : pool.preparedQuery(sql).execute(a.addOffsetDateTime(when.minus(w)).addOffsetDateTime(when).addOffsetDateTime(when.plus(w))
                        .addInteger(perSide + 1)).map(rows -> {
                    List<Row> out = new ArrayList<>(rows.rowCount());
                    rows.forEach(out::add);
                    return out;
                })).map(rows -> {
            List<Row> before = new ArrayList<>();
            List<Row> after = new ArrayList<>();
            for (Row r : rows) {
                (r.getOffsetDateTime(0).isBefore(when) ? before : after).add(r);
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
    static List<Double> nearest(List<Row> rows, OffsetDateTime at, int n) {
        if (rows.size() > n) {
            rows.sort(java.util.Comparator.comparing((Row r) -> Duration.between(r.getOffsetDateTime(0), at).abs()));
        }
        return rows.stream().limit(n).map(r -> r.getDouble(1)).toList();
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
