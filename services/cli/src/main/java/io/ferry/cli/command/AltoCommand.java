package io.ferry.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ferry.altopids.PidNames;
import io.ferry.cli.output.Column;
import io.ferry.cli.output.OutputFormat;
import io.ferry.cli.output.Units;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * {@code ferry alto directory|map|costs}: rate-aggregator's ALTO server (RFC 7285, docs/alto.md) read the way an ALTO
 * client reads it, in its own media types, with SEs named by their PIDs and back.
 */
@Command(name = "alto", mixinStandardHelpOptions = true,
        description = "rate-aggregator's measured costs as its ALTO server (RFC 7285) publishes them to other schedulers: "
                + "the directory, the network map of SEs, and costs between SEs from the filtered cost map.",
        footer = {"", "Examples:", "  ferry alto costs --from RAL-ECHO,BNL-DCACHE --to CERN-EOS",
                "  ferry alto costs --metric throughput --where 'gt 100000000'", "  ferry alto map -o json", "  ferry alto directory"})
public final class AltoCommand extends CommandGroup {

    static final String DIRECTORY = "application/alto-directory+json";
    static final String NETWORK_MAP = "application/alto-networkmap+json";
    static final String COST_MAP = "application/alto-costmap+json";
    static final String COST_MAP_FILTER = "application/alto-costmapfilter+json";
    static final String ERROR = "application/alto-error+json";

    /** The metrics the server publishes: the option's word, ALTO's metric name, and how people read its value. */
    enum Metric {
        ROUTINGCOST("routingcost", "lower first: seconds to move one reference file (1GB unless the service says otherwise)"),
        THROUGHPUT("priv:ferry-throughput", "higher first: bytes/s");

        final String altoName;
        final String meaning;

        Metric(String altoName, String meaning) {
            this.altoName = altoName;
            this.meaning = meaning;
        }

        String human(double value) {
            if (this == THROUGHPUT) {
                return Units.rate(value);
            }
            return value < 60 ? String.format(Locale.ROOT, "%.1fs", value) : Units.duration(Duration.ofMillis(Math.round(value * 1000)));
        }
    }

    @Command(name = "directory", mixinStandardHelpOptions = true, description = "The resources the ALTO server offers (its information resource directory).")
    int directory() {
        JsonNode directory = get("/alto", DIRECTORY);
        ArrayNode rows = JsonNodeFactory.instance.arrayNode();
        directory.path("resources").fields().forEachRemaining(e -> rows.addObject().put("id", e.getKey())
                .put("media_type", e.getValue().path("media-type").asText()).put("accepts", e.getValue().path("accepts").asText(""))
                .put("uri", e.getValue().path("uri").asText()));
        printOr(directory, rows, List.of(Column.field("RESOURCE", "id"), Column.field("MEDIA TYPE", "media_type"),
                Column.field("ACCEPTS", "accepts"), Column.field("URI", "uri")));
        return 0;
    }

    @Command(name = "map", mixinStandardHelpOptions = true, description = "The network map: every SE the costs name, as a PID, and its version tag.")
    int map() {
        JsonNode map = get("/alto/networkmap", NETWORK_MAP);
        ArrayNode rows = JsonNodeFactory.instance.arrayNode();
        map.path("network-map").fieldNames().forEachRemaining(pid -> rows.addObject().put("pid", pid).put("se", se(pid)));
        printOr(map, rows, List.of(Column.field("PID", "pid"), Column.field("SE", "se")));
        if (global().output() == OutputFormat.TABLE) {
            out.println("vtag " + map.path("meta").path("vtag").path("tag").asText());
        }
        return 0;
    }

    @Command(name = "costs", mixinStandardHelpOptions = true,
            description = "Costs between SEs from the filtered cost map, best first; links without measured costs are not in it.")
    int costs(@Option(names = "--from", paramLabel = "SE", split = ",", description = "source SE(s), comma-separated (default: all)") String[] from,
              @Option(names = "--to", paramLabel = "SE", split = ",", description = "destination SE(s), comma-separated (default: all)") String[] to,
              @Option(names = "--metric", paramLabel = "METRIC", defaultValue = "routingcost",
                      description = "routingcost (seconds per reference file, lower is better) or throughput (bytes/s, higher is better); default ${DEFAULT-VALUE}") String metric,
              @Option(names = "--where", paramLabel = "CONSTRAINT",
                      description = "an ALTO constraint the cost must meet, e.g. 'lt 120' or 'ge 5e8' (gt, lt, ge, le, eq; repeatable)") List<String> where) {
        Metric m = metric(metric);
        ObjectNode filter = JsonNodeFactory.instance.objectNode();
        filter.putObject("cost-type").put("cost-mode", "numerical").put("cost-metric", m.altoName);
        ObjectNode pids = filter.putObject("pids");
        pids.set("srcs", pids(from));
        pids.set("dsts", pids(to));
        if (where != null && !where.isEmpty()) {
            ArrayNode constraints = filter.putArray("constraints");
            where.forEach(constraints::add);
        }
        JsonNode answer = global().aggregator().exchange("POST", "/alto/costmap/filtered", filter, COST_MAP_FILTER, COST_MAP + ", " + ERROR);
        List<ObjectNode> cells = new ArrayList<>();
        answer.path("cost-map").fields().forEachRemaining(src -> src.getValue().fields().forEachRemaining(dst -> cells.add(
                JsonNodeFactory.instance.objectNode().put("from", se(src.getKey())).put("to", se(dst.getKey())).set("cost", dst.getValue()))));
        Comparator<ObjectNode> byCost = Comparator.comparingDouble(c -> c.path("cost").asDouble());
        cells.sort(m == Metric.ROUTINGCOST ? byCost : byCost.reversed());
        ArrayNode rows = JsonNodeFactory.instance.arrayNode().addAll(cells);
        printOr(answer, rows, List.of(Column.field("FROM", "from"), Column.field("TO", "to"),
                new Column(m.altoName.toUpperCase(Locale.ROOT), r -> Column.text(r.path("cost")), r -> m.human(r.path("cost").asDouble()))));
        if (global().output() == OutputFormat.TABLE && cells.isEmpty()) {
            out.println("no measured costs between these SEs (" + m.meaning + ")");
        }
        return 0;
    }

    private JsonNode get(String path, String mediaType) {
        return global().aggregator().exchange("GET", path, null, "application/json", mediaType + ", " + ERROR);
    }

    /** Tables and tsv show the rows; json and yaml the ALTO document itself, as other ALTO clients see it. */
    private void printOr(JsonNode document, ArrayNode rows, List<Column> columns) {
        switch (global().output()) {
            case JSON, YAML -> printer().document(document);
            default -> printer().rows(rows, columns);
        }
    }

    private static Metric metric(String name) {
        return Arrays.stream(Metric.values()).filter(m -> m.name().equalsIgnoreCase(name) || m.altoName.equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("--metric: routingcost or throughput, not " + name));
    }

    /** SE names as PIDs; none means every PID (RFC 7285 §11.3.2.3). */
    private static ArrayNode pids(String[] ses) {
        ArrayNode list = JsonNodeFactory.instance.arrayNode();
        if (ses != null) {
            Arrays.stream(ses).map(String::strip).filter(s -> !s.isEmpty()).map(PidNames::pid).forEach(list::add);
        }
        return list;
    }

    /** The SE of a PID, or the PID itself when it was cut and hashed (docs/alto.md) and only a list of SEs could tell. */
    private static String se(String pid) {
        return PidNames.se(pid).orElse(pid);
    }
}
