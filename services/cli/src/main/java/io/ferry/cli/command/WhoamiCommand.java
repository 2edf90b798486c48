package io.ferry.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ferry.cli.auth.Credential;
import io.ferry.cli.output.Column;
import io.ferry.cli.output.Units;
import picocli.CommandLine.Command;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** {@code ferry whoami}: who the scheduler takes the caller for, with the credential's source and expiry. */
@Command(name = "whoami", mixinStandardHelpOptions = true,
        description = "Show who you are to Ferry: subject, VO, scopes (or FQANs), roles, and when the credential expires.",
        footer = {"", "Examples:", "  ferry whoami", "  ferry whoami -o json", "  BEARER_TOKEN_FILE=~/token ferry whoami"})
public final class WhoamiCommand extends FerryCommand {

    @Override
    public Integer call() {
        Credential credential = global().credential();
        JsonNode me = global().scheduler().get("/whoami");
        ObjectNode view = ((ObjectNode) me.deepCopy());
        view.put("credential", credential.source());
        credential.expires().ifPresent(e -> view.put("expires", e.toString()));
        printer().record(view, columns(credential));
        return 0;
    }

    private static List<Column> columns(Credential credential) {
        List<Column> c = new ArrayList<>();
        c.add(Column.field("subject", "user_dn"));
        c.add(new Column("vo", r -> join(r.path("vos")), r -> join(r.path("vos"))));
        c.add(new Column(credential.isProxy() ? "fqans" : "scopes", r -> join(r.path("voms_cred")), r -> join(r.path("voms_cred"))));
        c.add(new Column("roles", r -> join(r.path("roles")), r -> join(r.path("roles"))));
        c.add(Column.field("method", "method"));
        c.add(Column.field("credential", "credential"));
        c.add(new Column("expires", r -> Column.text(r.path("expires")), r -> r.path("expires").isTextual() ? expiry(Instant.parse(r.path("expires").asText())) : ""));
        return c;
    }

    private static String expiry(Instant at) {
        Duration left = Duration.between(Instant.now(), at);
        return at + (left.isNegative() ? " (expired " + Units.duration(left.negated()) + " ago)" : " (in " + Units.duration(left) + ")");
    }

    private static String join(JsonNode array) {
        List<String> s = new ArrayList<>();
        array.forEach(v -> s.add(v.asText()));
        return String.join(" ", s);
    }
}
