package io.ferry.scheduler.storage;

import io.ferry.storageurl.StorageUrl;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What scheduling decisions read besides the queue: link bounds and the optimizer's targets, SE caps and sites,
 * VO and activity weights. Loaded once per scheduling pass.
 */
public record SchedulingInputs(Map<String, Link> links, Map<String, Integer> targets, Map<String, Se> ses, Map<String, Double> voWeights,
                               Map<String, Double> activityWeights) {

    /**
     * A link's bounds (configured or default), its optimizer mode, streams, the optimizer's current target, and its
     * rate cap in bytes per second (null: none).
     */
    public record Link(int minActive, int maxActive, String mode, Integer nostreams, Integer target, Long maxRate) {
        /** A link without a rate cap. */
        public Link(int minActive, int maxActive, String mode, Integer nostreams, Integer target) {
            this(minActive, maxActive, mode, nostreams, target, null);
        }

        public boolean adaptive() {
            return !"fixed".equals(mode);
        }

        /** How many transfers the link may run now. */
        public int allowed() {
            if ("fixed".equals(mode)) {
                return maxActive;
            }
            return target == null ? minActive : Math.max(minActive, Math.min(maxActive, target));
        }
    }

    /**
     * An SE as the engine sees it; {@code thirdPartyCopy}: it pulls files itself when asked (HTTP-TPC COPY);
     * {@code access}: which VOs may read and write where, checked again before every file touches it;
     * {@code allowServiceIdentity}: Ferry's own storage identity may be used toward it for a file that brings no
     * credential of its own.
     */
    public record Se(String name, String site, Map<String, String> baseUrls, boolean needsPrepare, int inboundMax, int outboundMax,
                     boolean thirdPartyCopy, StorageAccess access, boolean allowServiceIdentity) {
    }

    public static String key(String sourceSe, String destSe) {
        return sourceSe + "\u0000" + destSe;
    }

    public Link link(String sourceSe, String destSe, int defaultMin, int defaultMax) {
        String k = key(sourceSe, destSe);
        Link l = links.get(k);
        return l != null ? l : new Link(defaultMin, defaultMax, "adaptive", null, targets.get(k));
    }

    /** The SE a canonical storage URL lies under (the longest base URL of its scheme it lies below). */
    public Optional<String> seOf(StorageUrl url) {
        return EndpointMatcher.match(url, ses.values(), Se::baseUrls, Se::name).map(m -> m.se().name());
    }

    /** An SE's rights column (the JSON the catalogue stores; no value: closed). */
    static StorageAccess access(Object json) {
        if (json == null) {
            return StorageAccess.CLOSED;
        }
        JsonObject o = json instanceof JsonObject j ? j : new JsonObject(String.valueOf(json));
        List<StorageAccess.Rule> rules = new ArrayList<>();
        JsonArray given = o.getJsonArray("rules", new JsonArray());
        for (int i = 0; i < given.size(); i++) {
            JsonObject r = given.getJsonObject(i);
            rules.add(new StorageAccess.Rule(r.getString("vo"), Boolean.TRUE.equals(r.getBoolean("read")), Boolean.TRUE.equals(r.getBoolean("write")),
                    r.getString("path")));
        }
        return new StorageAccess(Boolean.TRUE.equals(o.getBoolean("open")), rules);
    }

    public double voWeight(String vo) {
        return voWeights.getOrDefault(vo, 1.0);
    }

    public double activityWeight(String vo, String activity) {
        return activityWeights.getOrDefault(vo + "\u0000" + activity, 1.0);
    }

    public static Uni<SchedulingInputs> load(SqlClient c) {
        Map<String, Link> links = new HashMap<>();
        Map<String, Se> ses = new HashMap<>();
        Map<String, Double> vo = new HashMap<>();
        Map<String, Double> act = new HashMap<>();
        Map<String, Integer> targets = new HashMap<>();
        return c.query("SELECT source_se, dest_se, active_target FROM link_state").execute().invoke(rows -> {
                    for (Row r : rows) {
                        targets.put(key(r.getString(0), r.getString(1)), r.getInteger(2));
                    }
                })
                .chain(x -> c.query("SELECT source_se, dest_se, min_active, max_active, optimizer_mode, nostreams, max_rate FROM link_config").execute())
                .invoke(rows -> {
                    for (Row r : rows) {
                        String k = key(r.getString(0), r.getString(1));
                        links.put(k, new Link(r.getInteger(2), r.getInteger(3), r.getString(4), r.getInteger(5), targets.get(k), r.getLong(6)));
                    }
                })
                .chain(x -> c.query("SELECT name, site, base_urls, needs_prepare, inbound_max_active, outbound_max_active, third_party_copy, access, "
                        + "allow_service_identity FROM storage_endpoint").execute())
                .invoke(rows -> {
                    for (Row r : rows) {
                        Map<String, String> urls = new HashMap<>();
                        Object json = r.getValue(2);
                        JsonObject o = json instanceof JsonObject j ? j : new JsonObject(String.valueOf(json));
                        o.forEach(e -> urls.put(e.getKey(), String.valueOf(e.getValue())));
                        ses.put(r.getString(0), new Se(r.getString(0), r.getString(1), urls, r.getBoolean(3), r.getInteger(4), r.getInteger(5),
                                r.getBoolean(6), access(r.getValue(7)), r.getBoolean(8)));
                    }
                })
                .chain(x -> c.query("SELECT vo, weight FROM vo_share").execute())
                .invoke(rows -> rows.forEach(r -> vo.put(r.getString(0), r.getDouble(1))))
                .chain(x -> c.query("SELECT a.vo, a.activity, a.weight FROM activity_share a "
                        + "WHERE NOT EXISTS (SELECT 1 FROM activity_share_state s WHERE s.vo = a.vo AND NOT s.active)").execute())
                .invoke(rows -> rows.forEach(r -> act.put(r.getString(0) + "\u0000" + r.getString(1), r.getDouble(2))))
                .map(x -> new SchedulingInputs(links, targets, ses, vo, act));
    }
}
