package io.ferry.cli.command;

import io.ferry.cli.client.FerryHttp;
import io.ferry.cli.output.Column;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.List;

/** {@code ferry se ls|get|put|rm}: the scheduler's catalogue of storage elements ({@code /endpoints}). */
@Command(name = "se", mixinStandardHelpOptions = true, subcommandsRepeatable = false,
        description = "Storage elements known to the scheduler: their sites, base URLs per protocol and access rules (put and rm need transfer:admin).",
        footer = {"", "Examples:", "  ferry se ls",
                "  ferry se put RAL-ECHO --json '{\"site\":\"RAL-LCG2\",\"baseUrls\":{\"https\":\"https://echo.example:1094/atlas\"},"
                        + "\"access\":{\"rules\":[{\"vo\":\"atlas\",\"read\":true,\"write\":true}]}}'",
                "  ferry se get RAL-ECHO -o yaml", "  ferry se rm RAL-ECHO"})
public final class SeCommand extends CommandGroup {

    static final List<Column> COLUMNS = List.of(Column.field("NAME", "name"), Column.field("SITE", "site"),
            Column.field("URLS", "baseUrls"), Column.field("ACCESS", "access"));

    @Command(name = "ls", mixinStandardHelpOptions = true, description = "List the SEs.")
    int ls() {
        printer().rows(global().scheduler().get("/endpoints"), COLUMNS);
        return 0;
    }

    @Command(name = "get", mixinStandardHelpOptions = true, description = "Show one SE.")
    int get(@Parameters(paramLabel = "NAME") String name) {
        printer().record(global().scheduler().get("/endpoints/" + FerryHttp.segment(name)), COLUMNS);
        return 0;
    }

    @Command(name = "put", mixinStandardHelpOptions = true, description = "Register or replace an SE.")
    int put(@Parameters(paramLabel = "NAME") String name,
            @Option(names = "--json", paramLabel = "JSON", description = "the SE as JSON") String json,
            @Option(names = {"-f", "--file"}, paramLabel = "FILE", description = "the SE as a JSON file (- for stdin)") String file) {
        var answer = global().scheduler().put("/endpoints/" + FerryHttp.segment(name), JsonInput.read(json, file));
        if (answer.isMissingNode()) {
            out.println("SE " + name + " stored");
        } else {
            printer().record(answer, COLUMNS);
        }
        return 0;
    }

    @Command(name = "rm", mixinStandardHelpOptions = true, description = "Remove an SE.")
    int rm(@Parameters(paramLabel = "NAME") String name) {
        global().scheduler().delete("/endpoints/" + FerryHttp.segment(name));
        out.println("SE " + name + " removed");
        return 0;
    }
}
