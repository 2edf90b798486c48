package io.ferry.scheduler.credentials.delegation;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.OffsetDateTime;
import java.util.Optional;

/**
 * FTS3 delegations by delegation id and DN ({@code delegated_credential}): pending certificate requests and delegated
 * proxies, whose keys arrive here already encrypted. An expired proxy is never answered, and is deleted.
 */
@ApplicationScoped
public class DelegatedCredentials {

    /** A pending request: the CSR and its sealed private key. */
    public record Pending(String csrPem, byte[] sealedKey, OffsetDateTime requestedAt) {
    }

    /** A delegated proxy: sealed full-proxy PEM, the owner's FQANs and when it expires. */
    public record Delegated(byte[] sealedProxy, String vomsAttrs, OffsetDateTime terminationTime) {
    }

    private final Pool pool;

    @Inject
    DelegatedCredentials(Pool pool) {
        this.pool = pool;
    }

    public Uni<Optional<Pending>> pending(String id, String dn) {
        return pool.preparedQuery("SELECT request_pem, request_key, requested_at FROM delegated_credential "
                        + "WHERE delegation_id = $1 AND user_dn = $2 AND request_key IS NOT NULL")
                .execute(Tuple.of(id, dn)).map(rows -> first(rows).map(r -> new Pending(r.getString(0), bytes(r, 1), r.getOffsetDateTime(2))));
    }

    public Uni<Void> savePending(String id, String dn, String csrPem, byte[] sealedKey, OffsetDateTime now) {
        return pool.preparedQuery("INSERT INTO delegated_credential (delegation_id, user_dn, request_pem, request_key, requested_at) "
                        + "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (delegation_id, user_dn) DO UPDATE "
                        + "SET request_pem = excluded.request_pem, request_key = excluded.request_key, requested_at = excluded.requested_at")
                .execute(Tuple.tuple().addString(id).addString(dn).addString(csrPem).addBuffer(Buffer.buffer(sealedKey)).addOffsetDateTime(now))
                .replaceWithVoid();
    }

    /** Stores the proxy in place of any earlier one and forgets the request it answered. */
    public Uni<Void> saveProxy(String id, String dn, byte[] sealedProxy, String vomsAttrs, OffsetDateTime terminationTime, OffsetDateTime now) {
        return pool.preparedQuery("UPDATE delegated_credential SET proxy = $3, voms_attrs = $4, termination_time = $5, delegated_at = $6, "
                        + "request_pem = NULL, request_key = NULL, requested_at = NULL WHERE delegation_id = $1 AND user_dn = $2")
                .execute(Tuple.tuple().addString(id).addString(dn).addBuffer(Buffer.buffer(sealedProxy)).addString(vomsAttrs)
                        .addOffsetDateTime(terminationTime).addOffsetDateTime(now)).replaceWithVoid();
    }

    /** The delegated proxy, unless there is none or it expired by {@code now}. */
    public Uni<Optional<Delegated>> proxy(String id, String dn, OffsetDateTime now) {
        return pool.preparedQuery("SELECT proxy, voms_attrs, termination_time FROM delegated_credential "
                        + "WHERE delegation_id = $1 AND user_dn = $2 AND proxy IS NOT NULL AND termination_time > $3")
                .execute(Tuple.of(id, dn, now)).map(rows -> first(rows).map(r -> new Delegated(bytes(r, 0), r.getString(1), r.getOffsetDateTime(2))));
    }

    /** Deletes the delegation (request and proxy); false when there was no proxy to delete. */
    public Uni<Boolean> delete(String id, String dn, OffsetDateTime now) {
        return pool.preparedQuery("DELETE FROM delegated_credential WHERE delegation_id = $1 AND user_dn = $2 "
                        + "RETURNING proxy IS NOT NULL AND termination_time > $3")
                .execute(Tuple.of(id, dn, now)).map(rows -> first(rows).map(r -> r.getBoolean(0)).orElse(false));
    }

    /** Deletes proxies that expired and requests older than {@code requestsBefore}; answers how many rows went. */
    public Uni<Integer> deleteExpired(OffsetDateTime now, OffsetDateTime requestsBefore) {
        return pool.preparedQuery("UPDATE delegated_credential SET proxy = NULL, voms_attrs = NULL, termination_time = NULL "
                        + "WHERE termination_time <= $1").execute(Tuple.of(now))
                .flatMap(x -> pool.preparedQuery("UPDATE delegated_credential SET request_pem = NULL, request_key = NULL, requested_at = NULL "
                        + "WHERE requested_at < $1").execute(Tuple.of(requestsBefore)))
                .flatMap(x -> pool.preparedQuery("DELETE FROM delegated_credential WHERE proxy IS NULL AND request_key IS NULL").execute())
                .map(RowSet::rowCount);
    }

    private static Optional<Row> first(RowSet<Row> rows) {
        var it = rows.iterator();
        return it.hasNext() ? Optional.of(it.next()) : Optional.empty();
    }

    private static byte[] bytes(Row r, int column) {
        Buffer b = r.getBuffer(column);
        return b == null ? null : b.getBytes();
    }
}
