package io.ferry.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.ferry.cli.client.FerryHttp;
import io.ferry.cli.output.Column;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.List;

/** {@code ferry share ls|put|activities|put-activities}: fair shares of VOs ({@code /shares}) and of a VO's activities. */
@Command(name = "share", mixinStandardHelpOptions = true,
        description = "Fair shares: the weight of each VO, and of each activity within a VO (put needs transfer:admin).",
        footer = {"", "Examples:", "  ferry share ls", "  ferry share put --json '{\"atlas\":3,\"cms\":2,\"ops\":0.1}'",
                "  ferry share activities atlas", "  ferry share put-activities atlas --json '{\"Data Consolidation\":1,\"Express\":4}'"})
public final class ShareCommand extends CommandGroup {

    @Command(name = "ls", mixinStandardHelpOptions = true, description = "The VOs' weights.")
    int ls() {
        weights(global().scheduler().get("/shares"), "VO");
        return 0;
    }

    @Command(name = "put", mixinStandardHelpOptions = true, description = "Replace the VOs' weights.")
    int put(@Option(names = "--json", paramLabel = "JSON") String json,
            @Option(names = {"-f", "--file"}, paramLabel = "FILE", description = "JSON file (- for stdin)") String file) {
        weights(global().scheduler().put("/shares", JsonInput.read(json, file)), "VO");
        return 0;
    }

    @Command(name = "activities", mixinStandardHelpOptions = true, description = "The weights of a VO's activities.")
    int activities(@Parameters(paramLabel = "VO") String vo) {
        weights(global().scheduler().get("/shares/" + FerryHttp.segment(vo) + "/activities"), "ACTIVITY");
        return 0;
    }

    @Command(name = "put-activities", mixinStandardHelpOptions = true, description = "Replace the weights of a VO's activities.")
    int putActivities(@Parameters(paramLabel = "VO") String vo, @Option(names = "--json", paramLabel = "JSON") String json,
                      @Option(names = {"-f", "--file"}, paramLabel = "FILE", description = "JSON file (- for stdin)") String file) {
        weights(global().scheduler().put("/shares/" + FerryHttp.segment(vo) + "/activities", JsonInput.read(json, file)), "ACTIVITY");
        return 0;
    }

    /** A {@code {name: weight}} map as rows for tables (json and yaml print it as it is). */
    private void weights(JsonNode map, String header) {
        ArrayNode rows = JsonNodeFactory.instance.arrayNode();
        map.fields().forEachRemaining(e -> rows.addObject().put("name", e.getKey()).set("weight", e.getValue()));
        switch (global().output()) {
            case JSON, YAML -> printer().document(map);
            default -> printer().rows(rows, List.of(Column.field(header, "name"), Column.field("WEIGHT", "weight")));
        }
    }
}
