package io.ferry.scheduler.fts3.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.ferry.identity.security.CurrentCaller;
import io.ferry.problem.Problem;
import io.ferry.problem.ProblemException;
import io.ferry.scheduler.storage.StorageEndpoint;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * FTS3's {@code /config/se} over Ferry's SE catalogue: an entry per registered SE, keyed by its name; a storage
 * named in FTS3's {@code scheme://host[:port]} form stands for each SE with a base URL there. Limits, site and
 * third-party copy are the SE's own; FTS3's other fields are kept beside it (fts3_se_config) and echoed.
 */
@ApplicationScoped
public class Fts3SeConfigService {

    /** The limit an SE runs on when none is configured (as a registration without one gets). */
    static final int DEFAULT_MAX_ACTIVE = 50;
    static final List<String> SE_INFO = List.of("inbound_max_active", "inbound_max_throughput", "outbound_max_active",
            "outbound_max_throughput", "udt", "ipv6", "se_metadata", "site", "debug_level", "skip_eviction", "tpc_support",
            "overwrite_disk_enabled");

    final Pool pool;

    final CurrentCaller caller;

    @Inject
    public Fts3SeConfigService(Pool pool, CurrentCaller caller) {
        this.pool = pool;
        this.caller = caller;
    }

    /** Every SE's configuration, or (se given) that of the SEs {@code se} stands for. */
    public Uni<Map<String, Object>> get(String se) {
        return pool.withConnection(c -> read(c, se == null || se.isBlank() ? null : se, null));
    }

    /** Applies FTS3's body, all of it or (any field refused) none; answers the configuration of the SEs it named. */
    @WithSpan
    public Uni<Map<String, Object>> set(JsonNode body) {
        if (body == null || !body.isObject() || body.isEmpty()) {
            throw ProblemException.badRequest("body", "Malformed configuration: expected {storage: {\"se_info\": {...}, \"operations\": {...}}}");
        }
        List<Problem.FieldError> errors = new ArrayList<>();
        Map<String, Fts3SeConfig> configs = new LinkedHashMap<>();
        body.fields().forEachRemaining(e -> {
            if (e.getKey().isBlank() || e.getKey().length() > 300) {
                errors.add(new Problem.FieldError(e.getKey(), "Malformed configuration: a storage is an SE name or scheme://host"));
            } else {
                configs.put(e.getKey(), Fts3SeConfig.parse(e.getKey(), e.getValue(), errors));
            }
        });
        if (!errors.isEmpty()) {
            throw ProblemException.badRequest("INVALID_SE_CONFIG", "invalid SE configuration; nothing was stored", errors);
        }
        String by = caller.subject();
        return pool.withTransaction(c -> RegisteredSes.load(c).flatMap(all -> {
            Map<String, Fts3SeConfig> byName = new TreeMap<>();
            List<String> unknown = new ArrayList<>();
            configs.forEach((storage, cfg) -> {
                List<String> names = RegisteredSes.names(storage, all);
                if (names.isEmpty()) {
                    unknown.add(storage);
                }
                names.forEach(n -> byName.put(n, cfg));
            });
            if (!unknown.isEmpty()) {
                throw ProblemException.unprocessable("UNKNOWN_SE", "not registered storage endpoints (register them at /endpoints/{name}): "
                        + unknown + "; nothing was stored", Map.of("unknown", unknown));
            }
            Uni<Void> chain = Uni.createFrom().voidItem();
            for (Map.Entry<String, Fts3SeConfig> e : byName.entrySet()) {
                chain = chain.flatMap(x -> store(c, e.getKey(), e.getValue(), by));
            }
            return chain.flatMap(x -> read(c, null, byName.keySet()));
        }));
    }

    /** Drops FTS3's configuration of the SEs {@code se} stands for: their limits go back to the defaults, kept fields go. */
    @WithSpan
    public Uni<Void> delete(String se) {
        if (se == null || se.isBlank()) {
            throw ProblemException.badRequest("se", "Missing storage (se)");
        }
        String by = caller.subject();
        return pool.withTransaction(c -> RegisteredSes.load(c).flatMap(all -> {
            String[] names = RegisteredSes.names(se, all).toArray(String[]::new);
            return c.preparedQuery("DELETE FROM fts3_se_config WHERE se_name = ANY($1)").execute(Tuple.of(names))
                    .flatMap(x -> c.preparedQuery("UPDATE storage_endpoint SET inbound_max_active = $2, outbound_max_active = $2, "
                            + "updated_at = now(), updated_by = $3 WHERE name = ANY($1)").execute(Tuple.of(names, DEFAULT_MAX_ACTIVE, by)));
        })).replaceWithVoid();
    }

    private Uni<Void> store(SqlConnection c, String name, Fts3SeConfig cfg, String by) {
        return c.preparedQuery("UPDATE storage_endpoint SET site = COALESCE($2, site), inbound_max_active = COALESCE($3, inbound_max_active), "
                                + "outbound_max_active = COALESCE($4, outbound_max_active), third_party_copy = COALESCE($5, third_party_copy), "
                                + "updated_at = now(), updated_by = $6 WHERE name = $1")
                .execute(Tuple.tuple().addString(name).addString(cfg.site()).addInteger(cfg.inboundMaxActive()).addInteger(cfg.outboundMaxActive())
                        .addBoolean(cfg.thirdPartyCopy()).addString(by))
                .flatMap(x -> c.preparedQuery("SELECT se_info, operations FROM fts3_se_config WHERE se_name = $1 FOR UPDATE").execute(Tuple.of(name)))
                .flatMap(rows -> {
                    JsonObject info = new JsonObject();
                    JsonObject ops = new JsonObject();
                    for (Row r : rows) {
                        info = RegisteredSes.json(r.getValue(0));
                        ops = RegisteredSes.json(r.getValue(1));
                    }
                    cfg.extras().forEach(info::put);
                    for (Map.Entry<String, Map<String, Integer>> vo : cfg.operations().entrySet()) {
                        JsonObject limits = ops.getJsonObject(vo.getKey(), new JsonObject());
                        vo.getValue().forEach((op, n) -> {
                            if (n > 0) {
                                limits.put(op, n);
                            } else {
                                limits.remove(op);
                            }
                        });
                        if (limits.isEmpty()) {
                            ops.remove(vo.getKey());
                        } else {
                            ops.put(vo.getKey(), limits);
                        }
                    }
                    return c.preparedQuery("INSERT INTO fts3_se_config (se_name, se_info, operations) VALUES ($1, $2, $3) "
                                    + "ON CONFLICT (se_name) DO UPDATE SET se_info = EXCLUDED.se_info, operations = EXCLUDED.operations")
                            .execute(Tuple.of(name, info, ops));
                })
                .replaceWithVoid();
    }

    /** FTS3's answer: per SE, {@code se_info} (every field, null where unset) and {@code operations} where it has some. */
    private Uni<Map<String, Object>> read(SqlConnection c, String se, Set<String> only) {
        return c.query("SELECT e.name, e.site, e.inbound_max_active, e.outbound_max_active, e.third_party_copy, e.base_urls, c.se_info, "
                + "c.operations FROM storage_endpoint e LEFT JOIN fts3_se_config c ON c.se_name = e.name ORDER BY e.name").execute().map(rows -> {
            List<StorageEndpoint> all = new ArrayList<>();
            List<Row> list = new ArrayList<>();
            for (Row r : rows) {
                all.add(RegisteredSes.endpoint(r.getString(0), r.getValue(5)));
                list.add(r);
            }
            Set<String> wanted = only != null ? only : se == null ? null : new TreeSet<>(RegisteredSes.names(se, all));
            Map<String, Object> out = new LinkedHashMap<>();
            for (Row r : list) {
                if (wanted != null && !wanted.contains(r.getString(0))) {
                    continue;
                }
                JsonObject kept = RegisteredSes.json(r.getValue(6));
                Map<String, Object> info = new LinkedHashMap<>();
                for (String f : SE_INFO) {
                    info.put(f, kept.getValue(f));
                }
                info.put("site", r.getString(1));
                info.put("inbound_max_active", r.getInteger(2));
                info.put("outbound_max_active", r.getInteger(3));
                if (!kept.containsKey("tpc_support")) {
                    info.put("tpc_support", r.getBoolean(4) ? "FULL" : "NONE");
                }
                Map<String, Object> entry = new LinkedHashMap<>();
                entry.put("se_info", info);
                JsonObject ops = RegisteredSes.json(r.getValue(7));
                if (!ops.isEmpty()) {
                    entry.put("operations", ops.getMap());
                }
                out.put(r.getString(0), entry);
            }
            return out;
        });
    }
}
