package io.ferry.scheduler.credentials;

import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * A job's submitter token ({@code job_submitter_token}: sealed, then the long-lived token the engine exchanged it
 * for, or the issuer's refusal, and the backoff after failures to answer) and the narrowed tokens obtained from it
 * per SE, side and origin ({@code job_storage_token}). Only sealed tokens pass through here.
 */
public final class SubmitterTokenRows {

    /** Seal numbers of the submitter's token and of the long-lived one (those of job_storage_token count down from -3). */
    public static final int SUBMITTER_SEAL = -1;
    public static final int LONG_LIVED_SEAL = -2;

    private static final String INSERT = "INSERT INTO job_submitter_token (job_id, sealed, issuer, expires_at) VALUES ($1, $2, $3, $4)";
    private static final String INSERT_SIDES = "INSERT INTO job_storage_token (job_id, se, side, audience, scope, token_no) "
            + "SELECT $1, unnest($2::text[]), unnest($3::text[]), unnest($4::text[]), unnest($5::text[]), unnest($6::int[])";

    // leased for a minute while one replica asks the issuer; a failure's backoff or the result replaces the lease
    private static final String CLAIM = "UPDATE job_submitter_token SET next_try_at = now() + interval '1 minute' WHERE job_id IN ("
            + "SELECT job_id FROM job_submitter_token WHERE long_lived IS NULL AND refused IS NULL AND next_try_at <= now() "
            + "AND ($1::uuid IS NULL OR job_id = $1) ORDER BY next_try_at LIMIT $2 FOR UPDATE SKIP LOCKED) RETURNING job_id, sealed, issuer";
    private static final String LONG_LIVED = "UPDATE job_submitter_token SET long_lived = $2, long_kind = $3, failures = 0, next_try_at = now() "
            + "WHERE job_id = $1";
    private static final String BACKOFF = "UPDATE job_submitter_token SET failures = failures + 1, "
            + "next_try_at = now() + make_interval(secs => least($2 * power(2, failures), $3)) WHERE job_id = $1 RETURNING next_try_at";
    private static final String REFUSE = "UPDATE job_submitter_token SET refused = $2 WHERE job_id = $1";
    private static final String STATE = "SELECT issuer, long_lived, long_kind, refused, next_try_at, failures FROM job_submitter_token WHERE job_id = $1";
    private static final String SIDE = "SELECT scope, token_no, sealed, expires_at, refused FROM job_storage_token "
            + "WHERE job_id = $1 AND se = $2 AND side = $3 AND audience = $4";
    private static final String STORE_SIDE = "WITH s AS (UPDATE job_storage_token SET sealed = $5, expires_at = $6 "
            + "WHERE job_id = $1 AND se = $2 AND side = $3 AND audience = $4) "
            + "UPDATE job_submitter_token SET failures = 0, long_lived = coalesce($7, long_lived) WHERE job_id = $1";
    private static final String REFUSE_SIDE = "UPDATE job_storage_token SET refused = $5 WHERE job_id = $1 AND se = $2 AND side = $3 AND audience = $4";

    private SubmitterTokenRows() {
    }

    /** One narrowed token a job will need: at SE {@code se}, {@code side} source or destination, for {@code audience}. */
    public record Side(String se, String side, String audience, String scope, int tokenNo) {
    }

    /** A submitter's token due for its exchange, still sealed. */
    public record Due(UUID job, byte[] sealed, String issuer) {
    }

    /** Where a job's exchange stands: {@code longLived} null until done; {@code refused} the issuer's refusal. */
    public record State(String issuer, byte[] longLived, String longKind, String refused, OffsetDateTime nextTryAt, int failures) {
    }

    /** A narrowed token's row: {@code sealed} null until first obtained. */
    public record SideToken(String scope, int tokenNo, byte[] sealed, OffsetDateTime expiresAt, String refused) {
    }

    /** Stores the sealed submitter's token and the sides its narrowed tokens are for (after the job, in the same transaction). */
    public static Uni<Void> insert(SqlClient c, UUID job, byte[] sealed, String issuer, OffsetDateTime expiresAt, List<Side> sides) {
        Tuple sideArgs = Tuple.tuple().addUUID(job).addArrayOfString(sides.stream().map(Side::se).toArray(String[]::new))
                .addArrayOfString(sides.stream().map(Side::side).toArray(String[]::new))
                .addArrayOfString(sides.stream().map(Side::audience).toArray(String[]::new))
                .addArrayOfString(sides.stream().map(Side::scope).toArray(String[]::new))
                .addArrayOfInteger(sides.stream().map(Side::tokenNo).toArray(Integer[]::new));
        return c.preparedQuery(INSERT).execute(Tuple.of(job, Buffer.buffer(sealed), issuer, expiresAt))
                .flatMap(x -> c.preparedQuery(INSERT_SIDES).execute(sideArgs)).replaceWithVoid();
    }

    /** Leases up to {@code limit} submitter tokens due for exchange ({@code job} non-null: only that job's). */
    public static Uni<List<Due>> claimDue(SqlClient c, UUID job, int limit) {
        return c.preparedQuery(CLAIM).execute(Tuple.of(job, limit)).map(rows -> {
            List<Due> out = new ArrayList<>();
            for (Row r : rows) {
                out.add(new Due(r.getUUID(0), r.getBuffer(1).getBytes(), r.getString(2)));
            }
            return out;
        });
    }

    public static Uni<Void> storeLongLived(SqlClient c, UUID job, byte[] sealed, String kind) {
        return c.preparedQuery(LONG_LIVED).execute(Tuple.of(job, Buffer.buffer(sealed), kind)).replaceWithVoid();
    }

    /** One more failure to answer: the next try after {@code firstSeconds}·2^(failures before), at most {@code maxSeconds}. */
    public static Uni<OffsetDateTime> backoff(SqlClient c, UUID job, double firstSeconds, double maxSeconds) {
        return c.preparedQuery(BACKOFF).execute(Tuple.of(job, firstSeconds, maxSeconds))
                .map(rows -> rows.iterator().hasNext() ? rows.iterator().next().getOffsetDateTime(0) : OffsetDateTime.now());
    }

    public static Uni<Void> refuse(SqlClient c, UUID job, String reason) {
        return c.preparedQuery(REFUSE).execute(Tuple.of(job, reason)).replaceWithVoid();
    }

    public static Uni<Optional<State>> state(SqlClient c, UUID job) {
        return c.preparedQuery(STATE).execute(Tuple.of(job)).map(rows -> {
            if (!rows.iterator().hasNext()) {
                return Optional.empty();
            }
            Row r = rows.iterator().next();
            var longLived = r.getBuffer(1);
            return Optional.of(new State(r.getString(0), longLived == null ? null : longLived.getBytes(), r.getString(2), r.getString(3),
                    r.getOffsetDateTime(4), r.getInteger(5)));
        });
    }

    public static Uni<Optional<SideToken>> side(SqlClient c, UUID job, String se, String side, String audience) {
        return c.preparedQuery(SIDE).execute(Tuple.of(job, se, side, audience)).map(rows -> {
            if (!rows.iterator().hasNext()) {
                return Optional.empty();
            }
            Row r = rows.iterator().next();
            var sealed = r.getBuffer(2);
            return Optional.of(new SideToken(r.getString(0), r.getInteger(1), sealed == null ? null : sealed.getBytes(), r.getOffsetDateTime(3),
                    r.getString(4)));
        });
    }

    /** The narrowed token obtained; {@code rotatedLongLived}: the refresh token the issuer rotated to (sealed), else null. */
    public static Uni<Void> storeSide(SqlClient c, UUID job, String se, String side, String audience, byte[] sealed, OffsetDateTime expiresAt,
                                      byte[] rotatedLongLived) {
        return c.preparedQuery(STORE_SIDE).execute(Tuple.tuple().addUUID(job).addString(se).addString(side).addString(audience)
                .addValue(Buffer.buffer(sealed)).addOffsetDateTime(expiresAt)
                .addValue(rotatedLongLived == null ? null : Buffer.buffer(rotatedLongLived))).replaceWithVoid();
    }

    public static Uni<Void> refuseSide(SqlClient c, UUID job, String se, String side, String audience, String reason) {
        return c.preparedQuery(REFUSE_SIDE).execute(Tuple.of(job, se, side, audience, reason)).replaceWithVoid();
    }
}
