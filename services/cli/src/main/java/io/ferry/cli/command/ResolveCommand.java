package io.ferry.cli.command;

import io.ferry.cli.client.FerryHttp;
import io.ferry.cli.output.Column;
import io.ferry.cli.transfer.Sizes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code ferry resolve ID --to SE}: handle-resolver's replicas of a handle or logical name, best first for an SE. */
@Command(name = "resolve", mixinStandardHelpOptions = true,
        description = "Show the replicas of a handle (handle:PREFIX/SUFFIX), LFN (lfn:/path), GUID or DID (did:scope:name),"
                + " best first for the destination SE, each with its transport URL and expected transfer time.",
        footer = {"", "Examples:", "  ferry resolve handle:21.T12345/run-42 --to CERN-EOS",
                "  ferry resolve did:data18:AOD.01234._000001.pool.root.1 --to RAL-ECHO --protocol root --size 2GB"})
public final class ResolveCommand extends FerryCommand {

    @Parameters(index = "0", paramLabel = "ID", description = "handle:…, lfn:…, guid:… or did:scope:name")
    String id;

    @Option(names = "--to", paramLabel = "SE", description = "destination SE the replicas are ranked for")
    String to;

    @Option(names = "--protocol", paramLabel = "SCHEME", description = "transport URLs in this protocol (https, davs, root, …)")
    String protocol;

    @Option(names = "--size", paramLabel = "SIZE", description = "file size for the expected time, e.g. 2GB")
    String size;

    @Override
    public Integer call() {
        Map<String, Object> q = new LinkedHashMap<>();
        q.put("id", id);
        q.put("destination", to);
        q.put("protocol", protocol);
        q.put("filesize", size == null ? null : Sizes.parse(size));
        var answer = global().resolver().get("/replicas" + FerryHttp.query(q));
        List<Column> columns = List.of(Column.field("SE", "se"), Column.field("SITE", "site"), Column.field("STATE", "state"),
                Column.bytes("SIZE", "size"), Column.field("ADLER32", "adler32"),
                new Column("EXPECTED", r -> Column.text(r.path("expectedSeconds")),
                        r -> r.path("expectedSeconds").isNumber() ? String.format(java.util.Locale.ROOT, "%.1fs", r.path("expectedSeconds").asDouble()) : ""),
                Column.field("TURL", "turl"));
        if (printer().format() == io.ferry.cli.output.OutputFormat.TABLE) {
            out.println(answer.path("id").asText(id) + (answer.path("handle").isTextual() ? "  (handle " + answer.path("handle").asText() + ")" : "")
                    + (to == null ? "" : "  ranked for " + to + " by " + answer.path("rankedBy").asText("?")));
            printer().rows(answer.path("replicas"), columns);
        } else if (printer().format() == io.ferry.cli.output.OutputFormat.TSV) {
            printer().rows(answer.path("replicas"), columns);
        } else {
            printer().document(answer);
        }
        return 0;
    }
}
