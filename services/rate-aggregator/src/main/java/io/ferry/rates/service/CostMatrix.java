package io.ferry.rates.service;

import io.ferry.problem.ProblemException;
import io.ferry.rates.api.Basis;
import io.ferry.rates.api.Cell;
import io.ferry.rates.api.Matrix;
import io.ferry.rates.config.RatesConfig;
import io.ferry.rates.model.Window;
import io.ferry.rates.repository.LinkCostSources;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The network-cost matrix (WP7's getNetworkCost(SE[], SE[])): expected seconds per file of a given size between
 * each pair of SEs = per-file overhead + size / throughput. The figures come from the link's recent transfers,
 * else from network measurements between the SEs, else from configured defaults; every cell names its basis.
 */
@ApplicationScoped
public class CostMatrix {

    final LinkCostSources sources;

    final RatesConfig config;

    @Inject
    public CostMatrix(LinkCostSources sources, RatesConfig config) {
        this.sources = sources;
        this.config = config;
    }

    @WithSpan
    public Uni<Matrix> cost(String from, String to, String filesize) {
        List<String> froms = names("from", from);
        List<String> destinations = names("to", to);
        if (froms.size() * destinations.size() > 2500) {
            throw ProblemException.badRequest("from", "at most 2500 cells per request");
        }
        long size = filesize == null ? 1_000_000_000L : Window.parseBytes("filesize", filesize);
        return windowOf(froms, destinations).map(window -> {
            List<Cell> cells = new ArrayList<>();
            String w = config.cost().window();
            for (String s : froms) {
                for (String d : destinations) {
                    LinkCostSources.Pair pair = new LinkCostSources.Pair(s, d);
                    LinkCostSources.Transfers t = window.byLink().get(pair);
                    Cell priced = priced(pair, size, t, window.byMeasurement().get(pair));
                    if (priced != null) {
                        cells.add(priced);
                    } else {
                        long done = t == null ? 0 : t.filesDone();
                        cells.add(cell(s, d, size, config.cost().defaultOverheadSeconds(), config.cost().defaultThroughput(),
                                new Basis("default", done, w, done > 0 ? done + " transfers are too few to price the link"
                                        : "no transfers or measurements on this link")));
                    }
                }
            }
            return new Matrix(size, froms, destinations, cells);
        });
    }

    /**
     * The cells of {@link #cost} that transfers or measurements price, for the links among these SEs that have
     * either; links only the configured defaults would price are left out. In no particular order.
     */
    @WithSpan
    public Uni<List<Cell>> pricedLinks(List<String> froms, List<String> destinations, long size) {
        return windowOf(froms, destinations).map(window -> {
            Set<LinkCostSources.Pair> pairs = new HashSet<>(window.byLink().keySet());
            pairs.addAll(window.byMeasurement().keySet());
            List<Cell> cells = new ArrayList<>();
            for (LinkCostSources.Pair pair : pairs) {
                Cell priced = priced(pair, size, window.byLink().get(pair), window.byMeasurement().get(pair));
                if (priced != null) {
                    cells.add(priced);
                }
            }
            return cells;
        });
    }

    /** What the links from {@code froms} to {@code destinations} did over the cost window: their transfers and latest measurements. */
    record CostWindow(Map<LinkCostSources.Pair, LinkCostSources.Transfers> byLink,
                      Map<LinkCostSources.Pair, LinkCostSources.Measured> byMeasurement) {
    }

    private Uni<CostWindow> windowOf(List<String> froms, List<String> destinations) {
        OffsetDateTime since = OffsetDateTime.now(ZoneOffset.UTC).minus(Window.parse("window", config.cost().window(), "7d"));
        return sources.transfers(since, froms, destinations).flatMap(byLink -> sources.measured(since, froms, destinations)
                .map(byMeasurement -> new CostWindow(byLink, byMeasurement)));
    }

    /** A link's cell from its own transfers (enough of them), else from a measurement; null when neither prices it. */
    Cell priced(LinkCostSources.Pair pair, long size, LinkCostSources.Transfers t, LinkCostSources.Measured m) {
        String w = config.cost().window();
        long done = t == null ? 0 : t.filesDone();
        if (done >= config.cost().minSamples() && t.transferSeconds() > 0) {
            double overhead = t.overheadSeconds() / done;
            double throughput = t.bytes() / t.transferSeconds();
            return cell(pair.source(), pair.destination(), size, overhead, throughput, new Basis("transfers", done, w, null));
        }
        if (m != null) {
            return cell(pair.source(), pair.destination(), size, config.cost().defaultOverheadSeconds(), m.throughputBps() / 8,
                    new Basis("measurements", 1, w, "throughput measured " + m.at()
                            + "; overhead is the configured default" + (done > 0 ? " (" + done + " transfers are too few)" : "")));
        }
        return null;
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
