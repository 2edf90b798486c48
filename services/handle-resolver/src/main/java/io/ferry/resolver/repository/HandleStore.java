package io.ferry.resolver.repository;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.ferry.resolver.model.HandleValue;
import io.ferry.resolver.model.Locations;
import io.ferry.resolver.model.ValuePermissions;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Handles and their values in PostgreSQL, read with one indexed query per resolution (the hot path of the
 * resolver and its proxy), written in transactions.
 */
@ApplicationScoped
public class HandleStore {

    /**
     * A stored handle with its values, ordered by index, and the parsed locations of its 10320/loc values (by value
     * index), so that resolving one never parses XML.
     */
    public record Stored(String handle, String prefix, OffsetDateTime tombstonedAt, String tombstoneReason, List<HandleValue> values,
                         Map<Integer, List<Locations.Location>> locations) {

        /** What anyone may read: the values with public read. */
        public Stored publicView() {
            return only(ValuePermissions::publicRead);
        }

        /** What an admin of the handle may read: the values with public or admin read. */
        public Stored adminView() {
            return only(v -> ValuePermissions.publicRead(v) || ValuePermissions.adminRead(v));
        }

        /** The parsed locations of a 10320/loc value of this handle (none for other values). */
        public List<Locations.Location> locationsOf(HandleValue v) {
            return locations.getOrDefault(v.index(), List.of());
        }

        private Stored only(Predicate<HandleValue> readable) {
            if (values.stream().allMatch(readable)) {
                return this;
            }
            List<HandleValue> kept = values.stream().filter(readable).toList();
            Map<Integer, List<Locations.Location>> locs = new HashMap<>();
            kept.forEach(v -> {
                if (locations.containsKey(v.index())) {
                    locs.put(v.index(), locations.get(v.index()));
                }
            });
            return new Stored(handle, prefix, tombstonedAt, tombstoneReason, kept, Map.copyOf(locs));
        }
    }

    /** A handle joined with its values, in the column order {@link #collect} and {@code value} read. */
    static final String STORED_COLUMNS = "h.handle, h.prefix, h.tombstoned_at, h.tombstone_reason, v.idx, v.type, v.data_format, "
            + "v.data_value::text, v.ttl_type, v.ttl, v.timestamp, v.admin_read, v.admin_write, v.pub_read, v.pub_write, v.locations::text";

    private static final TypeReference<List<Locations.Location>> LOCATION_LIST = new TypeReference<>() {
    };

    static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'");

    final Pool pool;

    final ObjectMapper json;

    @Inject
    public HandleStore(Pool pool, ObjectMapper json) {
        this.pool = pool;
        this.json = json;
    }

    public Pool pool() {
        return pool;
    }

    public Uni<Optional<Stored>> find(SqlClient c, String handle) {
        String sql = "SELECT " + STORED_COLUMNS + " FROM handle h LEFT JOIN handle_value v ON v.handle = h.handle "
                + "WHERE lower(h.handle) = lower($1) ORDER BY v.idx";
        return c.preparedQuery(sql).execute(Tuple.of(handle)).map(rows -> collect(rows).stream().findFirst());
    }

    /** Up to {@code limit} handles after {@code after} in handle order, with their values (the cache's preload). */
    public Uni<List<Stored>> page(String after, int limit) {
        String sql = "SELECT " + STORED_COLUMNS + " FROM (SELECT handle FROM handle WHERE handle > $1 ORDER BY handle LIMIT $2) p "
                + "JOIN handle h ON h.handle = p.handle LEFT JOIN handle_value v ON v.handle = h.handle ORDER BY h.handle, v.idx";
        return pool.preparedQuery(sql).execute(Tuple.of(after, limit)).map(this::collect);
    }

    /** Rows of handles joined with their values, ordered by handle then index, folded into one Stored per handle. */
    private List<Stored> collect(Iterable<Row> rows) {
        List<Stored> out = new ArrayList<>();
        Stored stored = null;
        for (Row r : rows) {
            if (stored == null || !stored.handle().equals(r.getString(0))) {
                stored = new Stored(r.getString(0), r.getString(1), r.getOffsetDateTime(2), r.getString(3), new ArrayList<>(), new HashMap<>());
                out.add(stored);
            }
            if (r.getInteger(4) != null) {
                HandleValue v = value(r);
                stored.values().add(v);
                if (HandleValue.LOC.equals(v.type())) {
                    stored.locations().put(v.index(), locations(r.getString(15), v));
                }
            }
        }
        return out;
    }

    public Uni<Optional<Stored>> find(String handle) {
        return find(pool, handle);
    }

    public Uni<Boolean> prefixHomed(SqlClient c, String prefix) {
        return c.preparedQuery("SELECT 1 FROM prefix WHERE lower(name) = lower($1)").execute(Tuple.of(prefix)).map(rows -> rows.size() > 0);
    }

    /** Creates the handle or replaces all of its values ({@code locations}: the parsed 10320/loc values, by index). */
    public Uni<Void> replace(SqlClient c, String handle, String prefix, List<HandleValue> values,
                             Map<Integer, List<Locations.Location>> locations) {
        return c.preparedQuery("INSERT INTO handle (handle, prefix) VALUES ($1, $2) ON CONFLICT (handle) DO UPDATE SET updated_at = now()")
                .execute(Tuple.of(handle, prefix))
                .flatMap(x -> c.preparedQuery("DELETE FROM handle_value WHERE handle = $1").execute(Tuple.of(handle)))
                .flatMap(x -> upsertValues(c, handle, values, locations));
    }

    /** Adds or overwrites the given values (by index), leaving the others. */
    public Uni<Void> upsertValues(SqlClient c, String handle, List<HandleValue> values, Map<Integer, List<Locations.Location>> locations) {
        if (values.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        List<Tuple> batch = new ArrayList<>();
        for (HandleValue v : values) {
            boolean absolute = v.ttl() != null && v.ttl().isTextual();
            long ttl = absolute ? OffsetDateTime.parse(v.ttl().asText()).toEpochSecond() : v.ttl() == null ? 86400 : v.ttl().asLong();
            String flags = ValuePermissions.of(v);
            List<Locations.Location> locs = locations.get(v.index());
            batch.add(Tuple.from(Arrays.asList(handle, v.index(), v.type(), v.data().format(), jsonb(v.data().value()),
                    (short) (absolute ? 1 : 0), ttl, flags.charAt(0) == '1', flags.charAt(1) == '1', flags.charAt(2) == '1',
                    flags.charAt(3) == '1', locs == null ? null : locationsJson(locs))));
        }
        return c.preparedQuery("INSERT INTO handle_value (handle, idx, type, data_format, data_value, ttl_type, ttl, "
                        + "admin_read, admin_write, pub_read, pub_write, locations) "
                        + "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT (handle, idx) DO UPDATE SET type = EXCLUDED.type, "
                        + "data_format = EXCLUDED.data_format, data_value = EXCLUDED.data_value, ttl_type = EXCLUDED.ttl_type, "
                        + "ttl = EXCLUDED.ttl, admin_read = EXCLUDED.admin_read, admin_write = EXCLUDED.admin_write, "
                        + "pub_read = EXCLUDED.pub_read, pub_write = EXCLUDED.pub_write, locations = EXCLUDED.locations, timestamp = now()")
                .executeBatch(batch)
                .flatMap(x -> c.preparedQuery("UPDATE handle SET updated_at = now() WHERE handle = $1").execute(Tuple.of(handle)))
                .replaceWithVoid();
    }

    public Uni<Integer> deleteValues(SqlClient c, String handle, List<Integer> indices) {
        return c.preparedQuery("DELETE FROM handle_value WHERE handle = $1 AND idx = ANY($2)")
                .execute(Tuple.of(handle, indices.toArray(Integer[]::new))).map(rows -> rows.rowCount());
    }

    public Uni<Integer> delete(SqlClient c, String handle) {
        return c.preparedQuery("DELETE FROM handle WHERE handle = $1").execute(Tuple.of(handle)).map(rows -> rows.rowCount());
    }

    public Uni<Void> tombstone(SqlClient c, String handle, String reason) {
        return c.preparedQuery("UPDATE handle SET tombstoned_at = CASE WHEN $2::text IS NULL THEN NULL ELSE now() END, "
                        + "tombstone_reason = $2, updated_at = now() WHERE handle = $1")
                .execute(Tuple.of(handle, reason)).replaceWithVoid();
    }

    public Uni<List<String>> list(SqlClient c, String prefix, int page, int pageSize) {
        return c.preparedQuery("SELECT handle FROM handle WHERE prefix = $1 ORDER BY handle LIMIT $2 OFFSET $3")
                .execute(Tuple.of(prefix, pageSize, page * pageSize)).map(rows -> {
                    List<String> out = new ArrayList<>();
                    rows.forEach(r -> out.add(r.getString(0)));
                    return out;
                });
    }

    public Uni<Long> count(SqlClient c, String prefix) {
        return c.preparedQuery("SELECT count(*) FROM handle WHERE prefix = $1").execute(Tuple.of(prefix))
                .map(rows -> rows.iterator().next().getLong(0));
    }

    /** The driver writes a Java String as a JSON string, a JsonObject/JsonArray as JSON: map each node to its kind. */
    static Object jsonb(JsonNode node) {
        if (node.isTextual()) {
            return node.asText();
        }
        if (node.isObject()) {
            return new io.vertx.core.json.JsonObject(node.toString());
        }
        if (node.isArray()) {
            return new io.vertx.core.json.JsonArray(node.toString());
        }
        if (node.isBoolean()) {
            return node.asBoolean();
        }
        return node.numberValue();
    }

    private io.vertx.core.json.JsonArray locationsJson(List<Locations.Location> locations) {
        try {
            return new io.vertx.core.json.JsonArray(json.writeValueAsString(locations));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize parsed locations", e);
        }
    }

    /** The stored parsed form; values written before it was stored are parsed here, once per load. */
    private List<Locations.Location> locations(String stored, HandleValue v) {
        if (stored != null) {
            try {
                return json.readValue(stored, LOCATION_LIST);
            } catch (JsonProcessingException e) {
                // unreadable: parse the value itself below
            }
        }
        return v.data().value().isTextual() ? Locations.parse(v.data().value().asText()) : List.of();
    }

    private HandleValue value(Row r) {
        JsonNode data;
        try {
            data = json.readTree(r.getString(7));
        } catch (JsonProcessingException e) {
            data = TextNode.valueOf(r.getString(7));
        }
        long ttl = r.getLong(9);
        JsonNode ttlNode = r.getShort(8) == 1
                ? TextNode.valueOf(OffsetDateTime.ofInstant(java.time.Instant.ofEpochSecond(ttl), ZoneOffset.UTC).format(TIMESTAMP))
                : ttl <= Integer.MAX_VALUE ? IntNode.valueOf((int) ttl) : com.fasterxml.jackson.databind.node.LongNode.valueOf(ttl);
        return new HandleValue(r.getInteger(4), r.getString(5), new HandleValue.Data(r.getString(6), data), ttlNode,
                r.getOffsetDateTime(10).withOffsetSameInstant(ZoneOffset.UTC).format(TIMESTAMP),
                ValuePermissions.fromColumns(r.getBoolean(11), r.getBoolean(12), r.getBoolean(13), r.getBoolean(14)));
    }
}
