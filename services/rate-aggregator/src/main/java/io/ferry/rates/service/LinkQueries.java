package io.ferry.rates.service;

import io.ferry.problem.ProblemException;
import io.ferry.rates.api.LinkTable;
import io.ferry.rates.api.SiteRow;
import io.ferry.rates.api.SiteTable;
import io.ferry.rates.config.RatesConfig;
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
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Summaries over a window: per link, site pair, site group or VO/activity, and transfers per site. */
@ApplicationScoped
public class LinkQueries {

    public static final Set<String> DIMENSIONS = Set.of("link", "site", "group", "vo");

    final RollupReader rollups;

    final RatesConfig config;

    @Inject
    public LinkQueries(RollupReader rollups, RatesConfig config) {
        this.rollups = rollups;
        this.config = config;
    }

    @WithSpan
    public Uni<LinkTable> links(String by, String window) {
        String dim = dimension(by);
        Duration w = Window.parse("window", window, "24h", config.reads().maxWindow());
        int bin = binFor(w);
        OffsetDateTime to = ceil(OffsetDateTime.now(ZoneOffset.UTC), bin);
        OffsetDateTime from = to.minus(w);
        return rollups.totals(dim, bin, from, to, null, null).map(rows -> new LinkTable(dim, window == null ? "24h" : window, from, to,
                rows.stream().sorted(Comparator.comparingLong(Totals::bytes).reversed()).toList()));
    }

    /** Transfers into and out of each site, like the experiment dashboards' per-cloud tables. */
    @WithSpan
    public Uni<SiteTable> sites(String window) {
        Duration w = Window.parse("window", window, "7d", config.reads().maxWindow());
        int bin = binFor(w);
        OffsetDateTime to = ceil(OffsetDateTime.now(ZoneOffset.UTC), bin);
        return rollups.totals("site", bin, to.minus(w), to, null, null).map(rows -> {
            Map<String, long[]> acc = new LinkedHashMap<>();
            for (Totals t : rows) {
                long[] out = acc.computeIfAbsent(t.source(), k -> new long[6]);
                out[1] += t.filesDone();
                out[3] += t.bytes();
                out[5] += t.filesFailed();
                long[] in = acc.computeIfAbsent(t.destination(), k -> new long[6]);
                in[0] += t.filesDone();
                in[2] += t.bytes();
                in[4] += t.filesFailed();
            }
            List<SiteRow> sites = new ArrayList<>();
            acc.forEach((site, v) -> sites.add(new SiteRow(site, v[0], v[1], v[2], v[3], v[4], v[5])));
            sites.sort(Comparator.comparingLong((SiteRow s) -> s.filesIn() + s.filesOut()).reversed());
            long total = rows.stream().mapToLong(Totals::filesDone).sum();
            return new SiteTable(window == null ? "7d" : window, total, sites);
        });
    }

    static String dimension(String by) {
        String dim = by == null ? "link" : by;
        if (!DIMENSIONS.contains(dim)) {
            throw ProblemException.badRequest("by", "one of link, site, group, vo");
        }
        return dim;
    }

    /** Fine bins for short windows, hourly up to two months, daily beyond. */
    static int binFor(Duration window) {
        if (window.compareTo(Duration.ofHours(6)) <= 0) {
            return 300;
        }
        return window.compareTo(Duration.ofDays(60)) <= 0 ? 3600 : 86400;
    }

    static OffsetDateTime ceil(OffsetDateTime t, int binSeconds) {
        long epoch = t.toEpochSecond();
        long origin = OffsetDateTime.of(2000, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC).toEpochSecond();
        long bins = Math.floorDiv(epoch - origin, binSeconds) + 1;
        return OffsetDateTime.ofInstant(java.time.Instant.ofEpochSecond(origin + bins * binSeconds), ZoneOffset.UTC)
                .truncatedTo(ChronoUnit.SECONDS);
    }
}
