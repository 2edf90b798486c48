package io.ferry.cli.command;

import io.ferry.cli.client.FerryHttp;
import io.ferry.cli.output.Column;
import io.ferry.cli.transfer.Intervals;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** {@code ferry ls}: the caller's (an administrator's: every VO's) jobs, FTS3's listing with friendlier filters. */
@Command(name = "ls", mixinStandardHelpOptions = true,
        description = {"List jobs, newest first: unfinished ones, or those in --state; --since adds (or, with --state, keeps)"
                + " jobs that finished within that time."},
        footer = {"", "Examples:", "  ferry ls", "  ferry ls --state FAILED,FINISHEDDIRTY --since 6h",
                "  ferry ls --link RAL-ECHO:CERN-EOS -o tsv | cut -f1"})
public final class LsCommand extends FerryCommand {

    /** SRC:DST, where SRC may itself be FTS3's scheme://host (the colon of :// is not the separator). */
    private static final Pattern LINK = Pattern.compile("(.+?):(?!//)(.+)");

    static final List<String> ALL_STATES = List.of("SUBMITTED", "STAGING", "ACTIVE", "FINISHED", "FAILED", "FINISHEDDIRTY", "CANCELED");

    static final List<Column> COLUMNS = List.of(Column.field("JOB", "job_id"), Column.field("STATE", "job_state"),
            Column.field("VO", "vo_name"), Column.field("SUBMITTED", "submit_time"), Column.field("FINISHED", "job_finished"),
            Column.field("SOURCE", "source_se"), Column.field("DESTINATION", "dest_se"), Column.field("PRIO", "priority"));

    @Option(names = "--state", paramLabel = "STATE[,STATE…]", split = ",", description = "SUBMITTED, STAGING, ACTIVE, FINISHED, FAILED, FINISHEDDIRTY, CANCELED")
    List<String> states;

    @Option(names = "--since", paramLabel = "INTERVAL", description = "finished within, e.g. 30m, 6h, 2d")
    String since;

    @Option(names = "--link", paramLabel = "SRC:DST", description = "jobs from SE SRC to SE DST")
    String link;

    @Option(names = "--vo", paramLabel = "VO", description = "jobs of this VO (administrators)")
    String vo;

    @Option(names = "--user", paramLabel = "DN", description = "jobs of this user (subject)")
    String user;

    @Option(names = "--limit", paramLabel = "N", description = "at most N jobs (default 100)")
    Integer limit;

    @Override
    public Integer call() {
        Map<String, Object> q = new LinkedHashMap<>();
        // the scheduler lists unfinished jobs when no state is named: with --since people mean those and the ones
        // that finished since, so every state is named
        List<String> wanted = states != null ? states : since != null ? ALL_STATES : null;
        q.put("state_in", wanted == null ? null : String.join(",", wanted).toUpperCase(java.util.Locale.ROOT));
        q.put("time_window", since == null ? null : Intervals.timeWindow(Intervals.parse(since)));
        if (link != null) {
            Matcher m = LINK.matcher(link);
            if (!m.matches()) {
                throw new IllegalArgumentException("--link takes SRC:DST, e.g. RAL-ECHO:CERN-EOS");
            }
            q.put("source_se", m.group(1));
            q.put("dest_se", m.group(2));
        }
        q.put("vo_name", vo);
        q.put("user_dn", user);
        q.put("limit", limit);
        printer().rows(global().scheduler().get("/jobs" + FerryHttp.query(q)), COLUMNS);
        return 0;
    }
}
