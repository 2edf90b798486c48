package io.ferry.scheduler.links;

import io.ferry.identity.security.CurrentCaller;
import io.ferry.problem.Problem;
import io.ferry.problem.ProblemException;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Fair-share weights, served at /shares and /shares/{vo}/activities: a VO of weight w is owed w/Σw of a
 * contended link's slots; inside a VO, activities split its share by their weights. VOs without a weight get 1.
 */
@ApplicationScoped
public class ShareService {

    final Pool pool;

    final CurrentCaller caller;

    @Inject
    public ShareService(Pool pool, CurrentCaller caller) {
        this.pool = pool;
        this.caller = caller;
    }

    public Uni<Map<String, Double>> voShares() {
        return pool.query("SELECT vo, weight FROM vo_share ORDER BY vo").execute().map(rows -> {
            Map<String, Double> out = new TreeMap<>();
            for (Row r : rows) {
                out.put(r.getString(0), r.getDouble(1));
            }
            return out;
        });
    }

    /** Replaces the VO weights with {@code weights}. */
    @WithSpan
    public Uni<Map<String, Double>> putVoShares(Map<String, Double> weights) {
        validate(weights, "");
        List<Tuple> rows = new ArrayList<>();
        weights.forEach((vo, w) -> rows.add(Tuple.of(vo, w, caller.subject())));
        return pool.withTransaction(c -> c.query("DELETE FROM vo_share").execute()
                        .flatMap(x -> rows.isEmpty() ? Uni.createFrom().nullItem()
                                : c.preparedQuery("INSERT INTO vo_share (vo, weight, updated_by) VALUES ($1, $2, $3)").executeBatch(rows)))
                .flatMap(x -> voShares());
    }

    public Uni<Map<String, Double>> activityShares(String vo) {
        return pool.preparedQuery("SELECT activity, weight FROM activity_share WHERE vo = $1 ORDER BY activity").execute(Tuple.of(vo))
                .map(rows -> {
                    Map<String, Double> out = new TreeMap<>();
                    for (Row r : rows) {
                        out.put(r.getString(0), r.getDouble(1));
                    }
                    return out;
                });
    }

    @WithSpan
    public Uni<Map<String, Double>> putActivityShares(String vo, Map<String, Double> weights) {
        if (vo == null || !vo.matches("[a-z0-9][a-z0-9._-]{0,99}")) {
            throw ProblemException.badRequest("vo", "a VO name such as atlas");
        }
        validate(weights, "");
        List<Tuple> rows = new ArrayList<>();
        weights.forEach((activity, w) -> rows.add(Tuple.of(vo, activity, w)));
        return pool.withTransaction(c -> c.preparedQuery("DELETE FROM activity_share WHERE vo = $1").execute(Tuple.of(vo))
                        .flatMap(x -> rows.isEmpty() ? Uni.createFrom().nullItem()
                                : c.preparedQuery("INSERT INTO activity_share (vo, activity, weight) VALUES ($1, $2, $3)").executeBatch(rows)))
                .flatMap(x -> activityShares(vo));
    }

    public static void validate(Map<String, Double> weights, String prefix) {
        if (weights == null) {
            throw ProblemException.badRequest("body", "expected an object of name: weight");
        }
        List<Problem.FieldError> errors = new ArrayList<>();
        weights.forEach((name, w) -> {
            if (name == null || name.isBlank() || name.length() > 100) {
                errors.add(new Problem.FieldError(prefix + name, "names are 1 to 100 characters"));
            } else if (w == null || !(w > 0) || w > 1e6) {
                errors.add(new Problem.FieldError(prefix + name, "weights are numbers above 0 and at most 1000000"));
            }
        });
        if (!errors.isEmpty()) {
            throw ProblemException.badRequest("INVALID_SHARES", "invalid weights; nothing was changed", errors);
        }
    }
}
