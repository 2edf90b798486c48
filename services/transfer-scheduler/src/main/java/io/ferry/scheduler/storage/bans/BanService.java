package io.ferry.scheduler.storage.bans;

import com.fasterxml.jackson.databind.JsonNode;
import io.ferry.identity.security.CurrentCaller;
import io.ferry.problem.ProblemException;
import io.ferry.scheduler.db.Db;
import io.ferry.scheduler.fts3.Fts3Numbers;
import io.ferry.scheduler.queue.FileState;
import io.ferry.scheduler.queue.JobState;
import io.ferry.scheduler.storage.StorageEndpoint;
import io.ferry.scheduler.transitions.Bans;
import io.ferry.scheduler.transitions.StateChanges;
import io.ferry.scheduler.transitions.StateStore;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * FTS3's bans, as its server has them: a banned SE's queued files are cancelled ({@code cancel}) or held until the
 * unban or the ban's timeout ({@code wait}, then cancelled), submissions touching it are refused unless the ban
 * allows them ({@code allow_submit}, with {@code wait} only); a banned user's unfinished jobs are cancelled and its
 * submissions refused. Cancelling goes through {@link StateChanges}, as every state change does.
 */
@ApplicationScoped
public class BanService {

    /** FTS3's reasons on the files a ban cancelled. */
    public static final String STORAGE_BANNED = "Storage banned";
    public static final String USER_BANNED = "User banned";
    public static final String WAIT_EXPIRED = "Storage banned: the ban's wait timeout expired";

    /** Every VO: a ban without {@code vo_name}. */
    static final String ANY_VO = "*";

    final Pool pool;

    final StateStore states;

    final CurrentCaller caller;

    @Inject
    public BanService(Pool pool, StateStore states, CurrentCaller caller) {
        this.pool = pool;
        this.states = states;
        this.caller = caller;
    }

    /** A stored SE ban, as FTS3 lists it. */
    public record SeBan(String se, String vo, String status, int waitTimeout, String message, String adminDn, OffsetDateTime additionTime) {
    }

    /** A stored user ban, as FTS3 lists it. */
    public record DnBan(String dn, String message, String adminDn, OffsetDateTime additionTime) {
    }

    /** What {@code POST /ban/se} asks for, read as FTS3 reads it. */
    public record SeBanRequest(String storage, String status, int timeout, boolean allowSubmit, String vo, String message) {

        public static SeBanRequest parse(JsonNode body) {
            if (body == null || !body.isObject()) {
                throw ProblemException.badRequest("body", "expected {\"storage\": ..., \"status\": \"cancel\"|\"wait\"}");
            }
            String storage = text(body.get("storage"));
            if (storage == null || storage.isBlank() || storage.length() > 300) {
                throw ProblemException.badRequest("storage", "Missing storage parameter");
            }
            String status = text(body.get("status"));
            status = status == null ? "CANCEL" : status.toUpperCase(Locale.ROOT);
            if (!status.equals("CANCEL") && !status.equals("WAIT")) {
                throw ProblemException.badRequest("status", "status can only be cancel or wait");
            }
            JsonNode allow = body.get("allow_submit");
            boolean allowSubmit = allow != null && (allow.isBoolean() ? allow.asBoolean() : "true".equalsIgnoreCase(allow.asText()));
            if (allowSubmit && status.equals("CANCEL")) {
                throw ProblemException.badRequest("allow_submit", "allow_submit and status = CANCEL can not be combined");
            }
            String whole = Fts3Numbers.wholeNumberText(body.get("timeout"));
            String timeoutText = whole != null ? whole : text(body.get("timeout"));
            int timeout = 0;
            if (timeoutText != null && !timeoutText.isBlank()) {
                if (!timeoutText.matches("\\d{1,9}")) {
                    throw ProblemException.badRequest("timeout", "seconds, a whole number >= 0");
                }
                timeout = Integer.parseInt(timeoutText);
            }
            String vo = text(body.get("vo_name"));
            return new SeBanRequest(storage, allowSubmit ? "WAIT_AS" : status, timeout, allowSubmit,
                    vo == null || vo.isBlank() ? ANY_VO : vo, text(body.get("message")));
        }
    }

    private static String text(JsonNode v) {
        return v == null || v.isNull() || v.isMissingNode() ? null : v.asText();
    }

    /**
     * Bans the SE(s) {@code r.storage} stands for (an SE name, or FTS3's {@code scheme://host[:port]}: each SE with a
     * base there); answers the jobs affected: those whose files it cancelled, or (wait) holds.
     */
    @WithSession
    public Uni<List<UUID>> banSe(SeBanRequest r) {
        return StorageEndpoint.<StorageEndpoint>listAll().flatMap(endpoints -> {
            List<String> names = StorageEndpoint.seNames(r.storage(), endpoints);
            return pool.preparedQuery("INSERT INTO banned_se (storage, vo, se_names, status, wait_timeout, message, admin_dn) "
                            + "VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (storage, vo) DO UPDATE SET se_names = EXCLUDED.se_names, "
                            + "status = EXCLUDED.status, wait_timeout = EXCLUDED.wait_timeout, message = EXCLUDED.message, "
                            + "admin_dn = EXCLUDED.admin_dn, addition_time = now()")
                    .execute(Tuple.tuple().addString(r.storage()).addString(r.vo()).addArrayOfString(names.toArray(String[]::new))
                            .addString(r.status()).addInteger(r.timeout()).addString(r.message()).addString(caller.subject()))
                    .flatMap(x -> r.status().equals("CANCEL") ? cancelBanned("b.status = 'CANCEL'", STORAGE_BANNED)
                            : held(names, r.vo()));
        });
    }

    /** Lifts the SE ban named {@code storage} (every VO's); its held files are claimed again. */
    public Uni<Void> unbanSe(String storage) {
        if (storage == null || storage.isBlank()) {
            throw ProblemException.badRequest("storage", "Missing storage parameter");
        }
        return pool.preparedQuery("DELETE FROM banned_se WHERE storage = $1").execute(Tuple.of(storage)).replaceWithVoid();
    }

    public Uni<List<SeBan>> bannedSes() {
        return pool.query("SELECT storage, vo, status, wait_timeout, message, admin_dn, addition_time FROM banned_se ORDER BY addition_time")
                .execute().map(rows -> {
                    List<SeBan> out = new ArrayList<>();
                    for (Row r : rows) {
                        out.add(new SeBan(r.getString(0), r.getString(1), r.getString(2), r.getInteger(3), r.getString(4), r.getString(5),
                                r.getOffsetDateTime(6)));
                    }
                    return out;
                });
    }

    /** Bans the user {@code dn} and cancels its unfinished jobs; answers them. A user cannot ban itself (409, as FTS3). */
    public Uni<List<UUID>> banDn(JsonNode body) {
        String dn = body == null ? null : text(body.get("user_dn"));
        if (dn == null || dn.isBlank() || dn.length() > 200) {
            throw ProblemException.badRequest("user_dn", "Missing dn parameter");
        }
        if (dn.equals(caller.subject())) {
            throw ProblemException.conflict("SELF_BAN", "The user tried to ban (her|his)self");
        }
        return pool.preparedQuery("INSERT INTO banned_dn (user_dn, message, admin_dn) VALUES ($1, $2, $3) "
                        + "ON CONFLICT (user_dn) DO UPDATE SET message = EXCLUDED.message, admin_dn = EXCLUDED.admin_dn, addition_time = now()")
                .execute(Tuple.of(dn, text(body.get("message")), caller.subject()))
                .flatMap(x -> pool.preparedQuery("SELECT job_id FROM job WHERE user_dn = $1 AND state IN (" + JobState.sql(JobState.OPEN) + ")")
                        .execute(Tuple.of(dn)))
                .flatMap(rows -> {
                    List<UUID> jobs = new ArrayList<>();
                    rows.forEach(r -> jobs.add(r.getUUID(0)));
                    Uni<Void> chain = Uni.createFrom().voidItem();
                    for (UUID job : jobs) {
                        chain = chain.flatMap(y -> states.cancel(job, null, USER_BANNED, unknown -> null));
                    }
                    return chain.replaceWith(jobs);
                });
    }

    public Uni<Void> unbanDn(String dn) {
        if (dn == null || dn.isBlank()) {
            throw ProblemException.badRequest("user_dn", "Missing user_dn parameter");
        }
        return pool.preparedQuery("DELETE FROM banned_dn WHERE user_dn = $1").execute(Tuple.of(dn)).replaceWithVoid();
    }

    public Uni<List<DnBan>> bannedDns() {
        return pool.query("SELECT user_dn, message, admin_dn, addition_time FROM banned_dn ORDER BY addition_time").execute().map(rows -> {
            List<DnBan> out = new ArrayList<>();
            for (Row r : rows) {
                out.add(new DnBan(r.getString(0), r.getString(1), r.getString(2), r.getOffsetDateTime(3)));
            }
            return out;
        });
    }

    /**
     * Refuses (403) a submission by a banned user, or one touching an SE banned for {@code vo} by a ban that does
     * not allow submissions.
     */
    public Uni<Void> checkSubmission(String vo, Collection<String> ses) {
        return pool.preparedQuery("SELECT 'user ' || user_dn FROM banned_dn WHERE user_dn = $1 UNION ALL "
                        + "SELECT 'storage ' || storage FROM banned_se WHERE status <> 'WAIT_AS' AND vo IN ('*', $2) AND se_names && $3 LIMIT 1")
                .execute(Tuple.of(caller.subject(), vo, ses.toArray(String[]::new))).map(rows -> {
                    if (rows.size() > 0) {
                        throw ProblemException.forbidden(rows.iterator().next().getString(0) + " is banned: the submission was refused");
                    }
                    return null;
                });
    }

    /**
     * The engine's sweep: files that reached a CANCEL-banned SE after the ban (a multihop job's next hop) and files
     * held by a WAIT ban whose timeout expired are cancelled. Answers how many jobs it touched.
     */
    public int sweep() {
        // most of the time nothing is banned: then the queue is not read at all
        if (!pool.query("SELECT EXISTS (SELECT 1 FROM banned_se)").execute().await().atMost(Db.WAIT).iterator().next().getBoolean(0)) {
            return 0;
        }
        int cancelled = cancelBanned("b.status = 'CANCEL'", STORAGE_BANNED).await().atMost(Db.WAIT).size();
        return cancelled + cancelBanned("b.status <> 'CANCEL' AND b.wait_timeout > 0 AND b.addition_time + make_interval(secs => b.wait_timeout) < now()",
                WAIT_EXPIRED).await().atMost(Db.WAIT).size();
    }

    /** Cancels the open files that touch an SE banned by a ban meeting {@code banCondition}; answers their jobs. */
    private Uni<List<UUID>> cancelBanned(String banCondition, String reason) {
        return pool.query("SELECT f.job_id, f.file_id FROM transfer_file f WHERE f.state IN (" + FileState.sql(FileState.OPEN) + ") AND "
                        + Bans.banned("f.source_se", "f.dest_se", "f.vo", banCondition) + " LIMIT 10000").execute()
                .flatMap(rows -> {
                    Map<UUID, List<Long>> byJob = new LinkedHashMap<>();
                    rows.forEach(r -> byJob.computeIfAbsent(r.getUUID(0), k -> new ArrayList<>()).add(r.getLong(1)));
                    Uni<Void> chain = Uni.createFrom().voidItem();
                    for (Map.Entry<UUID, List<Long>> e : byJob.entrySet()) {
                        chain = chain.flatMap(y -> states.cancel(e.getKey(), e.getValue(), reason, unknown -> null));
                    }
                    return chain.replaceWith(List.copyOf(byJob.keySet()));
                });
    }

    /** The jobs with queued files a new WAIT ban holds. */
    private Uni<List<UUID>> held(List<String> names, String vo) {
        return pool.preparedQuery("SELECT DISTINCT job_id FROM transfer_file WHERE state IN ("
                        + FileState.sql(EnumSet.of(FileState.SUBMITTED, FileState.STAGING, FileState.READY)) + ") "
                        + "AND (source_se = ANY($1) OR dest_se = ANY($1)) AND ($2 = '*' OR vo = $2)")
                .execute(Tuple.of(names.toArray(String[]::new), vo)).map(rows -> {
                    List<UUID> jobs = new ArrayList<>();
                    rows.forEach(r -> jobs.add(r.getUUID(0)));
                    return jobs;
                });
    }
}
