package io.ferry.cli.command;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ferry.cli.output.Column;
import io.ferry.cli.output.Printer;
import io.ferry.cli.output.Units;
import io.ferry.cli.transfer.Intervals;
import io.ferry.cli.transfer.Sizes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.time.Duration;
import java.util.List;

/** {@code ferry probe ls|add|rm|runs}: link probes ({@code /probes}), periodic test transfers the scheduler runs itself. */
@Command(name = "probe", mixinStandardHelpOptions = true,
        description = "Link probes: a file of a fixed size copied between two SEs every interval, as an ordinary job at a low share, "
                + "its source created and both files removed by Ferry (add and rm need transfer:admin).",
        footer = {"", "Examples:", "  ferry probe ls", "  ferry probe add RAL-ECHO CERN-EOS --size 1GB --every 30m",
                "  ferry probe add RAL-ECHO CERN-EOS --size 100MB --every 1h --vo atlas --disabled", "  ferry probe runs 3 --window 7d",
                "  ferry probe rm 3"})
public final class ProbeCommand extends CommandGroup {

    static final List<Column> COLUMNS = List.of(Column.field("ID", "probe_id"), Column.field("SOURCE", "source_se"),
            Column.field("DESTINATION", "dest_se"), Column.bytes("SIZE", "file_size"), seconds("EVERY", "interval_seconds"),
            Column.field("VO", "vo"), Column.field("ENABLED", "enabled"), Column.field("RUNS_12H", "runs_12h"),
            Column.field("FINISHED_12H", "finished_12h"), Column.rate("AVERAGE_12H", "average_12h_bytes_per_s"),
            nested("LAST", "last_run", "outcome"), nested("WHY", "last_run", "error"));

    static final List<Column> RUN_COLUMNS = List.of(Column.field("STARTED", "started_at"), Column.field("OUTCOME", "outcome"),
            Column.field("JOB", "job_id"), Column.rate("RATE", "throughput_bytes_per_s"), Column.field("SECONDS", "duration_seconds"),
            Column.rate("AVERAGE_12H", "average_12h_bytes_per_s"), Column.field("ERROR", "error_code"), Column.field("REASON", "error"));

    @Command(name = "ls", mixinStandardHelpOptions = true, description = "List the probes, each with its last 12 hours and its latest run.")
    int ls() {
        printer().rows(global().scheduler().get("/probes"), COLUMNS);
        return 0;
    }

    @Command(name = "add", mixinStandardHelpOptions = true, description = "Schedule a probe between two registered SEs.")
    int add(@Parameters(index = "0", paramLabel = "SRC") String source, @Parameters(index = "1", paramLabel = "DST") String destination,
            @Option(names = "--size", required = true, paramLabel = "SIZE", description = "the probe file's size, e.g. 1GB, 500MiB") String size,
            @Option(names = "--every", required = true, paramLabel = "INTERVAL", description = "time between runs, e.g. 30m, 6h") String every,
            @Option(names = "--vo", paramLabel = "VO", description = "the VO its jobs run for (the scheduler's default: ops)") String vo,
            @Option(names = "--disabled", description = "store it without running it yet") boolean disabled) {
        printer().record(global().scheduler().post("/probes", body(source, destination, size, every, vo, disabled)), COLUMNS);
        return 0;
    }

    @Command(name = "rm", mixinStandardHelpOptions = true, description = "Remove a probe (its last run's files are still removed).")
    int rm(@Parameters(index = "0", paramLabel = "ID") long id) {
        global().scheduler().delete("/probes/" + id);
        out.println("probe " + id + " removed");
        return 0;
    }

    @Command(name = "runs", mixinStandardHelpOptions = true, description = "A probe's runs, oldest first, each with the 12-hour average up to it.")
    int runs(@Parameters(index = "0", paramLabel = "ID") long id,
             @Option(names = "--window", defaultValue = "24h", paramLabel = "WINDOW", description = "how far back (at most 30d)") String window) {
        printer().rows(global().scheduler().get("/probes/" + id + "/runs?window=" + window(Intervals.parse(window))), RUN_COLUMNS);
        return 0;
    }

    /** The request body of {@code add}: sizes and intervals as people type them, in bytes and seconds. */
    static ObjectNode body(String source, String destination, String size, String every, String vo, boolean disabled) {
        Duration interval = Intervals.parse(every);
        ObjectNode body = Printer.JSON.createObjectNode().put("source_se", source).put("dest_se", destination).put("file_size", Sizes.parse(size))
                .put("interval_seconds", interval.toSeconds()).put("enabled", !disabled);
        if (vo != null) {
            body.put("vo", vo);
        }
        return body;
    }

    /** A window as the scheduler reads it: whole days, hours or minutes ({@code 7d}, {@code 6h}, {@code 90m}). */
    static String window(Duration d) {
        long minutes = Math.max(1, (d.toSeconds() + 59) / 60);
        return minutes % 1440 == 0 ? minutes / 1440 + "d" : minutes % 60 == 0 ? minutes / 60 + "h" : minutes + "m";
    }

    private static Column seconds(String header, String field) {
        return new Column(header, row -> Column.text(row.path(field)),
                row -> row.path(field).isNumber() ? Units.duration(Duration.ofSeconds(row.path(field).asLong())) : "");
    }

    private static Column nested(String header, String object, String field) {
        return new Column(header, row -> Column.text(row.path(object).path(field)), row -> Column.text(row.path(object).path(field)));
    }
}
