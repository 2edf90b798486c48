package io.ferry.scheduler.fts3.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.ferry.identity.security.CurrentCaller;
import io.ferry.problem.Problem;
import io.ferry.problem.ProblemException;
import io.ferry.scheduler.links.LinkService;
import io.ferry.scheduler.storage.StorageEndpoint;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * FTS3's {@code /config/links}: links named by a symbolic name, between two registered SEs (an SE name, or FTS3's
 * {@code scheme://host} standing for exactly one SE). min_active, max_active and nostreams are the link's own;
 * optimizer_mode is Ferry's adaptive|fixed (FTS3's numeric modes are accepted and left as they are); tcp_buffer_size and
 * no_delegation are kept and not acted on. FTS3's "*" wildcard links have no counterpart: Ferry's link defaults are
 * fixed ({@link LinkService#DEFAULT_MIN_ACTIVE}, {@link LinkService#DEFAULT_MAX_ACTIVE}).
 */
@ApplicationScoped
public class Fts3LinkConfigService {

    static final Set<String> FIELDS = Set.of("symbolicname", "source", "destination", "min_active", "max_active", "nostreams",
            "optimizer_mode", "tcp_buffer_size", "no_delegation");
    static final String COLUMNS = "source_se, dest_se, symbolic_name, min_active, max_active, optimizer_mode, tcp_buffer_size, nostreams, no_delegation";

    final Pool pool;

    final CurrentCaller caller;

    @Inject
    public Fts3LinkConfigService(Pool pool, CurrentCaller caller) {
        this.pool = pool;
        this.caller = caller;
    }

    /** A link as FTS3's t_link_config row names its fields. */
    public record Fts3Link(String source, String destination, String symbolicname, int min_active, int max_active, String optimizer_mode,
                           Integer tcp_buffer_size, Integer nostreams, String no_delegation) {
        static Fts3Link of(Row r) {
            return new Fts3Link(r.getString(0), r.getString(1), r.getString(2), r.getInteger(3), r.getInteger(4), r.getString(5),
                    r.getInteger(6), r.getInteger(7), r.getBoolean(8) ? "on" : "off");
        }
    }

    public Uni<List<Fts3Link>> list() {
        return pool.query("SELECT " + COLUMNS + " FROM link_config ORDER BY source_se, dest_se").execute().map(Fts3LinkConfigService::links);
    }

    public Uni<Fts3Link> get(String symbolicName) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM link_config WHERE symbolic_name = $1").execute(Tuple.of(symbolicName))
                .map(rows -> links(rows).stream().findFirst().orElseThrow(() -> ProblemException.notFound("Link " + symbolicName)));
    }

    /** FTS3's set_link_config (its defaults: min_active and max_active 2); answers the stored link. */
    @WithSpan
    public Uni<Fts3Link> set(JsonNode body) {
        if (body == null || !body.isObject()) {
            throw ProblemException.badRequest("body", "expected {\"symbolicname\", \"source\", \"destination\", \"min_active\", \"max_active\", …}");
        }
        List<Problem.FieldError> errors = new ArrayList<>();
        body.fieldNames().forEachRemaining(f -> {
            if (!FIELDS.contains(f)) {
                errors.add(new Problem.FieldError(f, "Field " + f + " unknown"));
            }
        });
        String name = text(body.get("symbolicname"));
        if (name == null || name.length() > 255) {
            errors.add(new Problem.FieldError("symbolicname", "Missing symbolicname"));
        }
        Integer min = integer(body, "min_active", 2, 1, 1000, errors);
        Integer max = integer(body, "max_active", 2, 1, 1000, errors);
        Integer streams = integer(body, "nostreams", null, 1, 16, errors);
        Integer tcpBuffer = integer(body, "tcp_buffer_size", null, 0, Integer.MAX_VALUE, errors);
        if (min != null && max != null && min > max) {
            errors.add(new Problem.FieldError("max_active", "max_active is lower than min_active"));
        }
        JsonNode modeNode = body.get("optimizer_mode");
        String mode = modeNode == null || modeNode.isNull() || modeNode.isNumber() ? null : modeNode.asText();
        if (mode != null && !mode.equals("adaptive") && !mode.equals("fixed")) {
            errors.add(new Problem.FieldError("optimizer_mode", "adaptive, fixed or one of FTS3's numeric modes"));
        }
        JsonNode nd = body.get("no_delegation");
        boolean noDelegation = nd != null && (nd.isBoolean() ? nd.asBoolean() : List.of("on", "true", "yes").contains(nd.asText().toLowerCase()));
        String source = text(body.get("source"));
        String destination = text(body.get("destination"));
        source = source == null ? "*" : source;
        destination = destination == null ? "*" : destination;
        if (!errors.isEmpty()) {
            throw ProblemException.badRequest("INVALID_LINK_CONFIG", "invalid link configuration; nothing was stored", errors);
        }
        String by = caller.subject();
        String from = source;
        String to = destination;
        return pool.withTransaction(c -> RegisteredSes.load(c).flatMap(all -> {
            String src = one(from, all);
            String dst = one(to, all);
            return c.preparedQuery("SELECT source_se, dest_se FROM link_config WHERE symbolic_name = $1 AND NOT (source_se = $2 AND dest_se = $3)")
                    .execute(Tuple.of(name, src, dst)).flatMap(taken -> {
                        if (taken.size() > 0) {
                            throw ProblemException.conflict("SYMBOLIC_NAME_TAKEN", "link " + name + " is already "
                                    + taken.iterator().next().getString(0) + " -> " + taken.iterator().next().getString(1) + "; nothing was stored");
                        }
                        return c.preparedQuery("INSERT INTO link_config (source_se, dest_se, symbolic_name, min_active, max_active, optimizer_mode, "
                                        + "tcp_buffer_size, nostreams, no_delegation, updated_at, updated_by) "
                                        + "VALUES ($1, $2, $3, $4, $5, COALESCE($6, 'adaptive'), $7, $8, $9, now(), $10) ON CONFLICT (source_se, dest_se) DO UPDATE SET "
                                        + "symbolic_name = EXCLUDED.symbolic_name, min_active = EXCLUDED.min_active, max_active = EXCLUDED.max_active, "
                                        + "optimizer_mode = COALESCE($6, link_config.optimizer_mode), tcp_buffer_size = EXCLUDED.tcp_buffer_size, "
                                        + "nostreams = EXCLUDED.nostreams, no_delegation = EXCLUDED.no_delegation, updated_at = now(), "
                                        + "updated_by = EXCLUDED.updated_by RETURNING " + COLUMNS)
                                .execute(Tuple.tuple().addString(src).addString(dst).addString(name).addInteger(min).addInteger(max).addString(mode)
                                        .addInteger(tcpBuffer).addInteger(streams).addBoolean(noDelegation).addString(by));
                    });
        })).map(rows -> links(rows).get(0));
    }

    /** FTS3's delete_link_config: the link runs on the defaults again; an unknown name is fine. */
    @WithSpan
    public Uni<Void> delete(String symbolicName) {
        return pool.preparedQuery("DELETE FROM link_config WHERE symbolic_name = $1").execute(Tuple.of(symbolicName)).replaceWithVoid();
    }

    /** The one registered SE {@code se} stands for. */
    private static String one(String se, List<StorageEndpoint> all) {
        if (se.equals("*")) {
            throw ProblemException.unprocessable("WILDCARD_LINK", "Ferry configures links between registered SEs; the defaults of every "
                    + "other link are fixed (min_active " + LinkService.DEFAULT_MIN_ACTIVE + ", max_active " + LinkService.DEFAULT_MAX_ACTIVE
                    + "); nothing was stored", Map.of("storage", se));
        }
        List<String> names = RegisteredSes.names(se, all);
        if (names.size() != 1) {
            throw ProblemException.unprocessable("UNKNOWN_SE", (names.isEmpty() ? "not a registered storage endpoint: " : "stands for several SEs "
                    + names + ", name one: ") + se + "; nothing was stored", Map.of("unknown", List.of(se)));
        }
        return names.get(0);
    }

    private static Integer integer(JsonNode body, String field, Integer absent, int min, int max, List<Problem.FieldError> errors) {
        JsonNode v = body.get(field);
        if (v == null || v.isNull()) {
            return absent;
        }
        String s = v.asText().trim();
        if (!(v.isIntegralNumber() || v.isTextual()) || !s.matches("[-+]?\\d{1,10}") || Long.parseLong(s) < min || Long.parseLong(s) > max) {
            errors.add(new Problem.FieldError(field, "an integer from " + min + " to " + max));
            return null;
        }
        return Integer.parseInt(s);
    }

    private static List<Fts3Link> links(RowSet<Row> rows) {
        List<Fts3Link> out = new ArrayList<>();
        rows.forEach(r -> out.add(Fts3Link.of(r)));
        return out;
    }

    private static String text(JsonNode v) {
        return v == null || v.isNull() || !v.isValueNode() || v.asText().isBlank() ? null : v.asText();
    }
}
