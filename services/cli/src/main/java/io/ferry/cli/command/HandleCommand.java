package io.ferry.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ferry.cli.client.FerryHttp;
import io.ferry.cli.output.Column;
import io.ferry.cli.output.OutputFormat;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code ferry handle get|put|rm|ls}: handle records in handle-resolver, over its Handle.net-compatible REST API ({@code /api/handles}). */
@Command(name = "handle", mixinStandardHelpOptions = true,
        description = "Handle records (Handle.net REST API of handle-resolver): show, create or replace, delete, list a prefix.",
        footer = {"", "Examples:", "  ferry handle get 21.T12345/run-42", "  ferry handle put 21.T12345/run-42 --url https://data.example/run-42",
                "  ferry handle put 21.T12345/run-42 -f record.json   # {\"values\":[{\"index\":1,\"type\":\"URL\",\"data\":{\"format\":\"string\",\"value\":\"…\"}}]}",
                "  ferry handle ls 21.T12345", "  ferry handle rm 21.T12345/run-42"})
public final class HandleCommand extends CommandGroup {

    static final List<Column> VALUES = List.of(Column.field("INDEX", "index"), Column.field("TYPE", "type"),
            new Column("VALUE", r -> Column.text(r.path("data").path("value")), r -> Column.text(r.path("data").path("value"))),
            Column.field("TTL", "ttl"), Column.field("TIMESTAMP", "timestamp"));

    @Command(name = "get", mixinStandardHelpOptions = true, description = "Show a handle's values.")
    int get(@Parameters(paramLabel = "PREFIX/SUFFIX") String handle,
            @Option(names = "--type", paramLabel = "TYPE", description = "only values of this type (repeatable)") List<String> types) {
        Map<String, Object> q = new LinkedHashMap<>();
        q.put("type", types == null ? null : String.join(",", types));
        JsonNode record = global().resolver().get("/api/handles/" + path(handle) + FerryHttp.query(q));
        if (global().output() == OutputFormat.JSON || global().output() == OutputFormat.YAML) {
            printer().document(record);
        } else {
            printer().rows(record.path("values"), VALUES);
        }
        return 0;
    }

    @Command(name = "put", mixinStandardHelpOptions = true, description = "Create or replace a handle's record.")
    int put(@Parameters(paramLabel = "PREFIX/SUFFIX") String handle,
            @Option(names = "--url", paramLabel = "URL", description = "a record of one URL value (index 1)") String url,
            @Option(names = "--json", paramLabel = "JSON", description = "the record, {\"values\": [...]}") String json,
            @Option(names = {"-f", "--file"}, paramLabel = "FILE", description = "the record as a JSON file (- for stdin)") String file) {
        JsonNode body;
        if (url != null) {
            if (json != null || file != null) {
                throw new IllegalArgumentException("give --url, --json or -f, one of them");
            }
            ObjectNode record = JsonNodeFactory.instance.objectNode();
            ArrayNode values = record.putArray("values");
            ObjectNode v = values.addObject().put("index", 1).put("type", "URL");
            v.putObject("data").put("format", "string").put("value", url);
            body = record;
        } else {
            body = JsonInput.read(json, file);
        }
        JsonNode answer = global().resolver().put("/api/handles/" + path(handle), body);
        if (global().output() == OutputFormat.TABLE) {
            out.println("handle " + answer.path("handle").asText(handle) + " stored");
        } else {
            printer().document(answer);
        }
        return 0;
    }

    @Command(name = "rm", mixinStandardHelpOptions = true, description = "Delete a handle.")
    int rm(@Parameters(paramLabel = "PREFIX/SUFFIX") String handle) {
        global().resolver().delete("/api/handles/" + path(handle));
        out.println("handle " + handle + " deleted");
        return 0;
    }

    @Command(name = "ls", mixinStandardHelpOptions = true, description = "List the handles of a prefix.")
    int ls(@Parameters(paramLabel = "PREFIX") String prefix,
           @Option(names = "--page", paramLabel = "N") Integer page, @Option(names = "--page-size", paramLabel = "N") Integer pageSize) {
        Map<String, Object> q = new LinkedHashMap<>();
        q.put("prefix", prefix);
        q.put("page", page);
        q.put("pageSize", pageSize);
        JsonNode listing = global().resolver().get("/api/handles" + FerryHttp.query(q));
        if (global().output() == OutputFormat.JSON || global().output() == OutputFormat.YAML) {
            printer().document(listing);
        } else {
            listing.path("handles").forEach(h -> out.println(h.asText()));
        }
        return 0;
    }

    /** {@code prefix/suffix} with the suffix's characters encoded but its slashes kept (suffixes may have several). */
    private static String path(String handle) {
        String h = handle.startsWith("handle:") ? handle.substring(7) : handle;
        int slash = h.indexOf('/');
        if (slash <= 0 || slash == h.length() - 1) {
            throw new IllegalArgumentException("'" + handle + "' is no handle: expected PREFIX/SUFFIX, e.g. 21.T12345/run-42");
        }
        StringBuilder b = new StringBuilder(FerryHttp.segment(h.substring(0, slash)));
        for (String part : h.substring(slash + 1).split("/", -1)) {
            b.append('/').append(FerryHttp.segment(part));
        }
        return b.toString();
    }
}
