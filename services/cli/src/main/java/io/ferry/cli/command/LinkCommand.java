package io.ferry.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ferry.cli.client.FerryHttp;
import io.ferry.cli.output.Column;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.List;

/** {@code ferry link ls|get|put|rm}: per-link settings ({@code /links}): active transfer limits, streams, optimizer mode, rate cap. */
@Command(name = "link", mixinStandardHelpOptions = true,
        description = "Links between SEs: their limits of active transfers, TCP streams, optimizer mode and rate cap (put and rm need transfer:admin).",
        footer = {"", "Examples:", "  ferry link ls", "  ferry link get RAL-ECHO CERN-EOS",
                "  ferry link put RAL-ECHO CERN-EOS --json '{\"min_active\":2,\"max_active\":40}'",
                "  ferry link put RAL-ECHO CERN-EOS --json '{\"max_active\":40}' --max-rate 1Gbit/s", "  ferry link rm RAL-ECHO CERN-EOS"})
public final class LinkCommand extends CommandGroup {

    static final List<Column> COLUMNS = List.of(Column.field("SOURCE", "source_se"), Column.field("DESTINATION", "dest_se"),
            Column.field("MIN", "min_active"), Column.field("MAX", "max_active"), Column.field("STREAMS", "nostreams"),
            Column.field("OPTIMIZER", "optimizer_mode"),
            Column.field("MAX RATE", "max_rate"), Column.field("UPDATED", "updated_at"), Column.field("BY", "updated_by"));

    @Command(name = "ls", mixinStandardHelpOptions = true, description = "List the configured links.")
    int ls() {
        printer().rows(global().scheduler().get("/links"), COLUMNS);
        return 0;
    }

    @Command(name = "get", mixinStandardHelpOptions = true, description = "Show one link.")
    int get(@Parameters(index = "0", paramLabel = "SRC") String source, @Parameters(index = "1", paramLabel = "DST") String destination) {
        printer().record(global().scheduler().get(path(source, destination)), COLUMNS);
        return 0;
    }

    @Command(name = "put", mixinStandardHelpOptions = true, description = "Configure a link.")
    int put(@Parameters(index = "0", paramLabel = "SRC") String source, @Parameters(index = "1", paramLabel = "DST") String destination,
            @Option(names = "--json", paramLabel = "JSON") String json,
            @Option(names = {"-f", "--file"}, paramLabel = "FILE", description = "JSON file (- for stdin)") String file,
            @Option(names = "--max-rate", paramLabel = "RATE", description = "cap the link's rate over all VOs: bytes/s, or e.g. 500MB/s, "
                    + "10Gbit/s; sets max_rate in the body (a put without it removes the cap)") String maxRate) {
        JsonNode body = maxRate != null && json == null && file == null ? JsonNodeFactory.instance.objectNode() : JsonInput.read(json, file);
        if (maxRate != null) {
            if (!(body instanceof ObjectNode settings)) {
                throw new IllegalArgumentException("the body is no JSON object");
            }
            settings.put("max_rate", maxRate);
        }
        printer().record(global().scheduler().put(path(source, destination), body), COLUMNS);
        return 0;
    }

    @Command(name = "rm", mixinStandardHelpOptions = true, description = "Drop a link's settings (back to the defaults).")
    int rm(@Parameters(index = "0", paramLabel = "SRC") String source, @Parameters(index = "1", paramLabel = "DST") String destination) {
        global().scheduler().delete(path(source, destination));
        out.println("link " + source + " -> " + destination + " removed");
        return 0;
    }

    private static String path(String source, String destination) {
        return "/links/" + FerryHttp.segment(source) + "/" + FerryHttp.segment(destination);
    }
}
