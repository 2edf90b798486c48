package io.ferry.scheduler.fts3.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.ferry.problem.ProblemException;
import io.ferry.scheduler.fts3.Fts3Numbers;
import io.ferry.scheduler.links.ShareService;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * FTS3's share calls: {@code /config/shares} (per-link VO shares, kept and listed: Ferry weighs VOs across all links,
 * {@code /shares}) and {@code /config/activity_shares} (a VO's activity weights, Ferry's activity_share, with FTS3's
 * {@code active} flag, which the scheduling honours).
 */
@ApplicationScoped
public class Fts3ShareConfigService {

    final Pool pool;

    @Inject
    public Fts3ShareConfigService(Pool pool) {
        this.pool = pool;
    }

    /** One of FTS3's t_share_config rows. */
    public record LinkShare(String source, String destination, String vo, int share) {
    }

    /** A VO's activity shares as FTS3 answers them. */
    public record ActivityShares(Map<String, Double> share, boolean active) {
    }

    public Uni<List<LinkShare>> linkShares() {
        return pool.query("SELECT source, destination, vo, share FROM fts3_share_config ORDER BY source, destination, vo").execute().map(rows -> {
            List<LinkShare> out = new ArrayList<>();
            for (Row r : rows) {
                out.add(new LinkShare(r.getString(0), r.getString(1), r.getString(2), r.getInteger(3)));
            }
            return out;
        });
    }

    /** FTS3's set_share: source and destination reduced to scheme://host; answers the share. */
    @WithSpan
    public Uni<Integer> setLinkShare(JsonNode body) {
        if (body == null || !body.isObject()) {
            throw ProblemException.badRequest("body", "expected {\"source\", \"destination\", \"vo\", \"share\"}");
        }
        JsonNode shareNode = body.get("share");
        String whole = Fts3Numbers.wholeNumberText(shareNode);
        String shareText = shareNode == null || shareNode.isNull() ? null : whole != null ? whole : shareNode.asText().trim();
        if (shareText == null || !shareText.matches("[-+]?\\d{1,9}") || (shareNode.isNumber() && whole == null)) {
            throw ProblemException.badRequest("share", "Bad share value");
        }
        int share = Integer.parseInt(shareText);
        if (share < 0) {
            throw ProblemException.badRequest("share", "Shares values cannot be negative");
        }
        String vo = text(body.get("vo"));
        String source = text(body.get("source"));
        String destination = text(body.get("destination"));
        if (source == null || destination == null || vo == null || share == 0) {
            throw ProblemException.badRequest("body", "Missing source, destination, vo and/or share");
        }
        if (vo.length() > 100) {
            throw ProblemException.badRequest("vo", "at most 100 characters");
        }
        String src = schemeHost(source, "source");
        String dst = schemeHost(destination, "destination");
        return pool.preparedQuery("INSERT INTO fts3_share_config (source, destination, vo, share) VALUES ($1, $2, $3, $4) "
                        + "ON CONFLICT (source, destination, vo) DO UPDATE SET share = EXCLUDED.share")
                .execute(Tuple.of(src, dst, vo, share)).replaceWith(share);
    }

    /** FTS3's delete_share: the row named exactly; absent is fine. */
    public Uni<Void> deleteLinkShare(String source, String destination, String vo) {
        if (blank(source) || blank(destination) || blank(vo)) {
            throw ProblemException.badRequest("source", "Missing source, destination and/or vo");
        }
        return pool.preparedQuery("DELETE FROM fts3_share_config WHERE source = $1 AND destination = $2 AND vo = $3")
                .execute(Tuple.of(source, destination, vo)).replaceWithVoid();
    }

    public Uni<Map<String, ActivityShares>> activityShares() {
        return pool.query("SELECT a.vo, a.activity, a.weight, COALESCE(s.active, TRUE) FROM activity_share a "
                + "LEFT JOIN activity_share_state s ON s.vo = a.vo ORDER BY a.vo, a.activity").execute().map(rows -> {
            Map<String, ActivityShares> out = new TreeMap<>();
            for (Row r : rows) {
                out.computeIfAbsent(r.getString(0), vo -> new ActivityShares(new LinkedHashMap<>(), r.getBoolean(3))).share()
                        .put(r.getString(1), r.getDouble(2));
            }
            return out;
        });
    }

    public Uni<ActivityShares> activityShares(String vo) {
        return activityShares().map(all -> {
            ActivityShares a = all.get(vo);
            if (a == null) {
                throw ProblemException.notFound("activity shares for " + vo);
            }
            return a;
        });
    }

    /**
     * FTS3's set_activity_shares: {@code {"vo", "share": {"A": 1, …} or [{"A": 1}, …], "active"}} replaces the VO's
     * activity weights; answers FTS3's t_activity_share_config row.
     */
    @WithSpan
    public Uni<Map<String, Object>> setActivityShares(JsonNode body) {
        if (body == null || !body.isObject()) {
            throw ProblemException.badRequest("body", "expected {\"vo\", \"share\", \"active\"}");
        }
        String vo = text(body.get("vo"));
        if (vo == null) {
            throw ProblemException.badRequest("vo", "Missing VO");
        }
        if (!vo.matches("[a-z0-9][a-z0-9._-]{0,99}")) {
            throw ProblemException.badRequest("vo", "a VO name such as atlas");
        }
        JsonNode share = body.get("share");
        if (share == null || share.isNull() || share.isEmpty() || !(share.isObject() || share.isArray())) {
            throw ProblemException.badRequest("share", "Missing share");
        }
        Map<String, Double> weights = new LinkedHashMap<>();
        List<JsonNode> entries = new ArrayList<>();
        if (share.isObject()) {
            entries.add(share);
        } else {
            share.forEach(entries::add);
        }
        for (JsonNode entry : entries) {
            if (!entry.isObject() || (share.isArray() && entry.size() != 1)) {
                throw ProblemException.badRequest("share", "share is expected to be a single JSON object with activity names and respective weights");
            }
            entry.fields().forEachRemaining(e -> {
                if (!e.getValue().isNumber()) {
                    throw ProblemException.badRequest("share." + e.getKey(), "Share weight must be a number");
                }
                weights.put(e.getKey(), e.getValue().asDouble());
            });
        }
        ShareService.validate(weights, "share.");
        JsonNode activeNode = body.get("active");
        if (activeNode != null && !activeNode.isNull() && !activeNode.isBoolean()) {
            throw ProblemException.badRequest("active", "true or false");
        }
        boolean active = activeNode == null || activeNode.isNull() || activeNode.asBoolean();
        List<Tuple> rows = new ArrayList<>();
        weights.forEach((activity, w) -> rows.add(Tuple.of(vo, activity, w)));
        return pool.withTransaction(c -> c.preparedQuery("DELETE FROM activity_share WHERE vo = $1").execute(Tuple.of(vo))
                        .flatMap(x -> c.preparedQuery("INSERT INTO activity_share (vo, activity, weight) VALUES ($1, $2, $3)").executeBatch(rows))
                        .flatMap(x -> c.preparedQuery("INSERT INTO activity_share_state (vo, active) VALUES ($1, $2) "
                                + "ON CONFLICT (vo) DO UPDATE SET active = EXCLUDED.active").execute(Tuple.of(vo, active))))
                .map(x -> {
                    List<Map<String, Double>> asList = new ArrayList<>();
                    weights.forEach((a, w) -> asList.add(Map.of(a, w)));
                    Map<String, Object> out = new LinkedHashMap<>();
                    out.put("vo", vo);
                    out.put("activity_share", asList);
                    out.put("active", active);
                    return out;
                });
    }

    /** FTS3's delete_activity_shares: 404 when the VO has none. */
    @WithSpan
    public Uni<Void> deleteActivityShares(String vo) {
        return pool.withTransaction(c -> c.preparedQuery("DELETE FROM activity_share WHERE vo = $1").execute(Tuple.of(vo))
                .flatMap(deleted -> c.preparedQuery("DELETE FROM activity_share_state WHERE vo = $1").execute(Tuple.of(vo)).map(x -> {
                    if (deleted.rowCount() == 0) {
                        throw ProblemException.notFound("activity shares for " + vo);
                    }
                    return null;
                }))).replaceWithVoid();
    }

    /** FTS3's normalisation of a share's source or destination: {@code scheme://hostname}. */
    static String schemeHost(String url, String field) {
        try {
            URI u = new URI(url.trim());
            if (u.getScheme() == null || u.getHost() == null) {
                throw ProblemException.badRequest(field, "Invalid " + field);
            }
            String out = u.getScheme().toLowerCase(Locale.ROOT) + "://" + u.getHost().toLowerCase(Locale.ROOT);
            if (out.length() > 150) {
                throw ProblemException.badRequest(field, "at most 150 characters");
            }
            return out;
        } catch (URISyntaxException e) {
            throw ProblemException.badRequest(field, "Invalid " + field);
        }
    }

    private static String text(JsonNode v) {
        return v == null || v.isNull() || !v.isValueNode() || v.asText().isBlank() ? null : v.asText();
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
