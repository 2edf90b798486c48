package io.ferry.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ferry.cli.client.FerryHttp;
import io.ferry.cli.output.Column;
import io.ferry.cli.output.OutputFormat;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code ferry webhook show|put-hosts|new-secret|events}: a VO's webhook settings ({@code /webhooks/vos/{vo}}: the hosts
 * its jobs may name, the signing secret) and a job's webhook events with their delivery state (docs/webhooks.md).
 */
@Command(name = "webhook", mixinStandardHelpOptions = true,
        description = "Webhooks: the hosts a VO's jobs may send events to and the VO's signing secret (transfer:admin), "
                + "and the events of a job with their delivery state (the job's VO or an admin).",
        footer = {"", "Examples:", "  ferry webhook put-hosts atlas hooks.atlas.example.org '*.cern.ch'", "  ferry webhook new-secret atlas",
                "  ferry webhook show atlas", "  ferry webhook events 5a3e61f2-8c39-4f7e-9d0b-2f6c1b7e4a10",
                "  ferry submit SRC DST --webhook https://hooks.atlas.example.org/ferry"})
public final class WebhookCommand extends CommandGroup {

    static final List<Column> VO_FIELDS = List.of(Column.field("VO", "vo"),
            new Column("ALLOWED HOSTS", r -> Column.text(r.path("allowed_hosts")), r -> hosts(r)),
            new Column("SECRET", r -> Column.text(r.path("has_secret")), r -> r.path("has_secret").asBoolean() ? "set" : "none (jobs cannot name a webhook)"),
            Column.field("SECRET CREATED", "secret_created_at"));

    static final List<Column> EVENT_COLUMNS = List.of(Column.field("EVENT", "event_id"), Column.field("KIND", "kind"),
            Column.field("STATUS", "status"), Column.field("ATTEMPTS", "attempts"), Column.field("CREATED", "created_at"),
            new Column("DELIVERED/NEXT", r -> Column.text(r.path(when(r))), r -> Column.text(r.path(when(r)))),
            Column.field("LAST ERROR", "last_error"));

    @Command(name = "show", mixinStandardHelpOptions = true, description = "A VO's allowed hosts and whether it has a signing secret.")
    int show(@Parameters(paramLabel = "VO") String vo) {
        printer().record(global().scheduler().get(path(vo)), VO_FIELDS);
        return 0;
    }

    @Command(name = "put-hosts", mixinStandardHelpOptions = true,
            description = "Replace the hosts a VO's jobs may name in --webhook: host names or *.domain patterns (https only; "
                    + "addresses that resolve to private networks are refused when sending).")
    int putHosts(@Parameters(index = "0", paramLabel = "VO") String vo,
                 @Parameters(index = "1..*", paramLabel = "HOST", arity = "0..*") List<String> hosts,
                 @Option(names = "--none", description = "allow no host: the VO's jobs can name no webhook") boolean none) {
        if ((hosts == null || hosts.isEmpty()) == !none) {
            throw new IllegalArgumentException("name the hosts, or --none to allow none");
        }
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.putArray("allowed_hosts").addAll(none ? List.of() : hosts.stream().map(JsonNodeFactory.instance::textNode).toList());
        printer().record(global().scheduler().put(path(vo), body), VO_FIELDS);
        return 0;
    }

    @Command(name = "new-secret", mixinStandardHelpOptions = true,
            description = "Make the VO a new signing secret, replacing the old one at once; it is shown this once.")
    int newSecret(@Parameters(paramLabel = "VO") String vo) {
        JsonNode answer = global().scheduler().post(path(vo) + "/secret", null);
        if (global().output() == OutputFormat.TABLE) {
            out.println(answer.path("secret").asText());
            System.err.println("ferry webhook: the new secret of " + vo + " is shown this once; store it where the receiver checks Ferry-Signature."
                    + " Events signed from now on use it.");
        } else {
            printer().document(answer);
        }
        return 0;
    }

    @Command(name = "events", mixinStandardHelpOptions = true, description = "A job's webhook events, oldest first: pending, delivered or failed.")
    int events(@Parameters(paramLabel = "JOB_ID") String job) {
        printer().rows(global().scheduler().get("/webhooks/jobs/" + FerryHttp.segment(job)), EVENT_COLUMNS);
        return 0;
    }

    private static String path(String vo) {
        return "/webhooks/vos/" + FerryHttp.segment(vo);
    }

    private static String hosts(JsonNode vo) {
        List<String> names = new ArrayList<>();
        vo.path("allowed_hosts").forEach(h -> names.add(h.asText()));
        return names.isEmpty() ? "none" : String.join(", ", names);
    }

    /** Which time says most about an event: when it was delivered, when it failed for good, or when it is tried next. */
    private static String when(JsonNode event) {
        for (String field : List.of("delivered_at", "failed_at", "next_attempt_at")) {
            if (event.hasNonNull(field)) {
                return field;
            }
        }
        return "next_attempt_at";
    }
}
