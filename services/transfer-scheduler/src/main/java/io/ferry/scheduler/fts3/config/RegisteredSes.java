package io.ferry.scheduler.fts3.config;

import io.ferry.scheduler.storage.StorageEndpoint;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.SqlConnection;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** The SE names and base URLs, read on a plain connection, for FTS3's calls that name storage as SE or scheme://host. */
final class RegisteredSes {

    private RegisteredSes() {
    }

    static Uni<List<StorageEndpoint>> load(SqlConnection c) {
        return c.query("SELECT name, base_urls FROM storage_endpoint").execute().map(rows -> {
            List<StorageEndpoint> all = new ArrayList<>();
            rows.forEach(r -> all.add(endpoint(r.getString(0), r.getValue(1))));
            return all;
        });
    }

    /** The registered SEs {@code storage} (an SE name or FTS3's scheme://host[:port]) stands for; none if it names none. */
    static List<String> names(String storage, List<StorageEndpoint> all) {
        Set<String> known = new TreeSet<>();
        all.forEach(e -> known.add(e.name));
        return StorageEndpoint.seNames(storage, all).stream().filter(known::contains).toList();
    }

    /** A catalogue row as {@link StorageEndpoint#seNames} reads it: name and base URLs (not an entity of any session). */
    static StorageEndpoint endpoint(String name, Object baseUrls) {
        StorageEndpoint e = new StorageEndpoint();
        e.name = name;
        json(baseUrls).forEach(u -> e.baseUrls.put(u.getKey(), String.valueOf(u.getValue())));
        return e;
    }

    static JsonObject json(Object v) {
        return v == null ? new JsonObject() : v instanceof JsonObject j ? j : new JsonObject(String.valueOf(v));
    }
}
