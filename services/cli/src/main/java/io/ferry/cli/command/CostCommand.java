package io.ferry.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.ferry.cli.client.FerryHttp;
import io.ferry.cli.output.Column;
import io.ferry.cli.output.OutputFormat;
import io.ferry.cli.output.Units;
import io.ferry.cli.transfer.Sizes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code ferry cost SRC DST --size 10GB}: rate-aggregator's expected time per file between SEs. */
@Command(name = "cost", mixinStandardHelpOptions = true,
        description = "Expected time to move one file of --size from SRC to DST (comma-separated lists give a matrix), and what the estimate rests on.",
        footer = {"", "Examples:", "  ferry cost RAL-ECHO CERN-EOS --size 10GB", "  ferry cost RAL-ECHO,BNL-DCACHE CERN-EOS --size 500MB -o json"})
public final class CostCommand extends FerryCommand {

    @Parameters(index = "0", paramLabel = "SRC", description = "source SE(s), comma-separated")
    String from;

    @Parameters(index = "1", paramLabel = "DST", description = "destination SE(s), comma-separated")
    String to;

    @Option(names = "--size", paramLabel = "SIZE", required = true, description = "file size, bytes or e.g. 10GB, 2GiB")
    String size;

    @Override
    public Integer call() {
        Map<String, Object> q = new LinkedHashMap<>();
        q.put("from", from);
        q.put("to", to);
        q.put("filesize", Sizes.parse(size));
        JsonNode matrix = global().aggregator().get("/cost" + FerryHttp.query(q));
        if (global().output() == OutputFormat.JSON || global().output() == OutputFormat.YAML) {
            printer().document(matrix);
            return 0;
        }
        printer().rows(matrix.path("cells"), List.of(Column.field("FROM", "from"), Column.field("TO", "to"),
                new Column("SECONDS", r -> Column.text(r.path("seconds")), r -> Units.duration(Duration.ofMillis((long) (r.path("seconds").asDouble() * 1000)))),
                Column.rate("THROUGHPUT", "throughput"),
                new Column("BASIS", r -> r.path("basis").path("source").asText(""), r -> basis(r.path("basis")))));
        return 0;
    }

    private static String basis(JsonNode b) {
        return b.path("source").asText("") + (b.path("samples").asLong(0) > 0 ? " (" + b.path("samples").asLong() + " samples, " + b.path("window").asText("") + ")" : "")
                + (b.path("note").isTextual() ? " " + b.path("note").asText() : "");
    }
}
