package io.ferry.rates.service;

import io.ferry.problem.ProblemException;
import io.ferry.rates.config.RatesConfig;
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
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The network-cost matrix (WP7's getNetworkCost(SE[], SE[])): expected seconds per file of a given size between
 * each pair of SEs = per-file overhead + size / throughput. The figures come from the link's recent transfers,
 * else from network measurements between the SEs, else from configured defaults; every cell names its basis.
 */
@ApplicationScoped
public class CostMatrix {

    public record Basis(String source, long samples, String window, String note) {
    }

    public record Cell(String from, String to, double seconds, double overheadSeconds, double throughput, Basis basis) {
    }

    public record Matrix(long filesize, List<String> from, List<String> to, List<Cell> cells) {
    }

    @Inject
    Pool pool;

    @Inject
    RatesConfig config;

    @WithSpan
    public Uni<Matrix> cost(String from, String to, String filesize) {
        List<String> sources = names("from", from);
        List<String> destinations = names("to", to);
        if (sources.size() * destinations.size() > 2500) {
            throw ProblemException.badRequest("from", "at most 2500 cells per request");
        }
        long size = filesize == null ? 1_000_000_000L : Window.parseBytes("filesize", filesize);
        Duration window = Window.parse("window", config.cost().window(), "7d");
        OffsetDateTime since = OffsetDateTime.now(ZoneOffset.UTC).minus(window);
        String transfers = "SELECT k1, k2, sum(files_done)::bigint, sum(prepare_s + checksum_s), sum(transfer_s), sum(bytes)::bigint "
                + "FROM rollup WHERE dim = 'link' AND bin_seconds = 3600 AND bin_start >= $1 AND k1 = ANY($2) AND k2 = ANY($3) GROUP BY 1, 2";
        String measured = "SELECT DISTINCT ON (source, destination) source, destination, throughput_bps, measured_at "
                + "FROM measurement WHERE measured_at >= $1 AND source = ANY($2) AND destination = ANY($3) AND throughput_bps > 0 "
                + "ORDER BY source, destination, measured_at DESC";
        Tuple args = Tuple.of(since, sources.toArray(String[]::new), destinations.toArray(String[]::new));
        return pool.preparedQuery(transfers).execute(args).flatMap(tRows -> pool.preparedQuery(measured).execute(args).map(mRows -> {
            Map<String, Row> byLink = new HashMap<>();
            tRows.forEach(r -> byLink.put(r.getString(0) + "\u0000" + r.getString(1), r));
            Map<String, Row> byMeasurement = new HashMap<>();
            mRows.forEach(r -> byMeasurement.put(r.getString(0) + "\u0000" + r.getString(1), r));
            List<Cell> cells = new ArrayList<>();
            String w = config.cost().window();
            for (String s : sources) {
                for (String d : destinations) {
                    Row t = byLink.get(s + "\u0000" + d);
                    Row m = byMeasurement.get(s + "\u0000" + d);
                    long done = t == null ? 0 : t.getLong(2);
                    if (done >= config.cost().minSamples() && t.getDouble(4) > 0) {
                        double overhead = t.getDouble(3) / done;
                        double throughput = t.getLong(5) / t.getDouble(4);
                        cells.add(cell(s, d, size, overhead, throughput, new Basis("transfers", done, w, null)));
                    } else if (m != null) {
                        cells.add(cell(s, d, size, config.cost().defaultOverheadSeconds(), m.getDouble(2) / 8,
                                new Basis("measurements", 1, w, "throughput measured " + m.getOffsetDateTime(3)
                                        + "; overhead is the configured default" + (done > 0 ? " (" + done + " transfers are too few)" : ""))));
                    } else {
                        cells.add(cell(s, d, size, config.cost().defaultOverheadSeconds(), config.cost().defaultThroughput(),
                                new Basis("default", done, w, done > 0 ? done + " transfers are too few to price the link"
                                        : "no transfers or measurements on this link")));
                    }
                }
            }
            return new Matrix(size, sources, destinations, cells);
        }));
    }

    static Cell cell(String s, String d, long size, double overhead, double throughput, Basis basis) {
        return new Cell(s, d, overhead + size / throughput, overhead, throughput, basis);
    }

    static List<String> names(String field, String csv) {
        if (csv == null || csv.isBlank()) {
            throw ProblemException.badRequest(field, "a comma-separated list of SE names is required");
        }
        List<String> out = Arrays.stream(csv.split(",")).map(String::trim).filter(x -> !x.isEmpty()).distinct().toList();
        if (out.stream().anyMatch(x -> !x.matches("[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}"))) {
            throw ProblemException.badRequest(field, "SE names are letters, digits, '_', '.', ':' and '-'");
        }
        return out;
    }
}
