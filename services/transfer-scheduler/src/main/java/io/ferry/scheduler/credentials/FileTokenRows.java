package io.ferry.scheduler.credentials;

import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The sealed bearer tokens of a job's files ({@code job_token}, each distinct token once per job) and which of a
 * file's URLs each goes to ({@code file_token}). Only sealed tokens pass through here.
 */
public final class FileTokenRows {

    private static final String TOKENS = "INSERT INTO job_token (job_id, token_no, sealed, expires_at, issuer) "
            + "SELECT $1, unnest($2::int[]), unnest($3::bytea[]), unnest($4::timestamptz[]), unnest($5::text[])";

    // a job submitted with FTS3's unmanaged_tokens keeps the tokens it brought: the submitter manages their lifetime
    private static final String EXPIRING = "SELECT t.job_id, t.token_no, t.sealed, t.expires_at, t.issuer FROM job_token t "
            + "WHERE t.expires_at < $1 AND t.expires_at > now() AND t.issuer = ANY($2) AND NOT EXISTS (SELECT 1 FROM job j "
            + "WHERE j.job_id = t.job_id AND CASE WHEN jsonb_typeof(j.params::jsonb) = 'object' "
            + "THEN lower(j.params::jsonb ->> 'unmanaged_tokens') = 'true' ELSE FALSE END) ORDER BY t.expires_at LIMIT $3";

    // only if no other replica replaced it in the meantime
    private static final String REPLACE = "UPDATE job_token SET sealed = $3, expires_at = $4 WHERE job_id = $1 AND token_no = $2 AND expires_at = $5";

    // the files were inserted just before, in the same transaction: found by their index in the job
    private static final String USES = "INSERT INTO file_token (file_id, side, url, job_id, token_no) "
            + "SELECT f.file_id, t.side, t.url, $1, t.token_no FROM unnest($2::int[], $3::text[], $4::text[], $5::int[]) "
            + "AS t(file_index, side, url, token_no) JOIN transfer_file f ON f.job_id = $1 AND f.file_index = t.file_index";

    private static final String OF_FILE = "SELECT t.side, t.url, j.token_no, j.sealed, j.expires_at FROM file_token t "
            + "JOIN job_token j ON j.job_id = t.job_id AND j.token_no = t.token_no WHERE t.file_id = $1";

    private FileTokenRows() {
    }

    /** One sealed token of a job. */
    public record Sealed(int tokenNo, byte[] sealed, OffsetDateTime expiresAt, String issuer) {
    }

    /** A stored token near its expiry. */
    public record Expiring(UUID job, int tokenNo, byte[] sealed, OffsetDateTime expiresAt, String issuer) {
    }

    /** Which token one URL of a file (by its index in the job) gets; {@code side} is source or destination. */
    public record Use(int fileIndex, String side, String url, int tokenNo) {
    }

    /** A file's token for one of its URLs, still sealed. */
    public record FileToken(String side, String url, int tokenNo, byte[] sealed, OffsetDateTime expiresAt) {
    }

    /** Stores the job's sealed tokens and their uses (after its files, in the same transaction). */
    public static Uni<Void> insert(SqlClient c, UUID job, List<Sealed> tokens, List<Use> uses) {
        if (tokens.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        Tuple t = Tuple.tuple().addUUID(job).addArrayOfInteger(tokens.stream().map(Sealed::tokenNo).toArray(Integer[]::new))
                .addValue(tokens.stream().map(s -> Buffer.buffer(s.sealed())).toArray(Buffer[]::new))
                .addArrayOfOffsetDateTime(tokens.stream().map(Sealed::expiresAt).toArray(OffsetDateTime[]::new))
                .addArrayOfString(tokens.stream().map(Sealed::issuer).toArray(String[]::new));
        Tuple u = Tuple.tuple().addUUID(job).addArrayOfInteger(uses.stream().map(Use::fileIndex).toArray(Integer[]::new))
                .addArrayOfString(uses.stream().map(Use::side).toArray(String[]::new))
                .addArrayOfString(uses.stream().map(Use::url).toArray(String[]::new))
                .addArrayOfInteger(uses.stream().map(Use::tokenNo).toArray(Integer[]::new));
        return c.preparedQuery(TOKENS).execute(t).flatMap(x -> c.preparedQuery(USES).execute(u)).replaceWithVoid();
    }

    /** Up to {@code limit} tokens of these issuers that expire before {@code before} (and have not yet), soonest first. */
    public static Uni<List<Expiring>> expiring(SqlClient c, OffsetDateTime before, List<String> issuers, int limit) {
        return c.preparedQuery(EXPIRING).execute(Tuple.of(before, issuers.toArray(String[]::new), limit)).map(rows -> {
            List<Expiring> out = new ArrayList<>();
            for (Row r : rows) {
                out.add(new Expiring(r.getUUID(0), r.getInteger(1), r.getBuffer(2).getBytes(), r.getOffsetDateTime(3), r.getString(4)));
            }
            return out;
        });
    }

    /** Replaces a token by its fresh one; false if it was replaced already. */
    public static Uni<Boolean> replace(SqlClient c, Expiring old, byte[] sealed, OffsetDateTime expiresAt) {
        return c.preparedQuery(REPLACE).execute(Tuple.of(old.job(), old.tokenNo(), Buffer.buffer(sealed), expiresAt,
                old.expiresAt())).map(rows -> rows.rowCount() == 1);
    }

    /** The file's tokens, each for the URL it was given for. */
    public static Uni<List<FileToken>> ofFile(SqlClient c, long fileId) {
        return c.preparedQuery(OF_FILE).execute(Tuple.of(fileId)).map(rows -> {
            List<FileToken> out = new ArrayList<>();
            for (Row r : rows) {
                out.add(new FileToken(r.getString(0), r.getString(1), r.getInteger(2), r.getBuffer(3).getBytes(), r.getOffsetDateTime(4)));
            }
            return out;
        });
    }
}
