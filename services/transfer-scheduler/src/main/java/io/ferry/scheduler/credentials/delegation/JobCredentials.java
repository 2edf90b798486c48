package io.ferry.scheduler.credentials.delegation;

import io.ferry.movers.ClientCertificate;
import io.ferry.movers.MoverException;
import io.ferry.movers.StorageCredentials;
import io.ferry.movers.WebDavSchemes;
import io.ferry.scheduler.config.DelegationConfig;
import io.ferry.scheduler.db.Db;
import io.ferry.scheduler.queue.ClaimedFile;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a copy presents to storage: a job submitted with a certificate presents its owner's delegated proxy (found by
 * the job's {@code cred_id}) as the client certificate to each https:// side of a copy and as the gsi credential to each
 * root:// side (a server that takes no gsi is not shown it); other jobs the mover's own
 * identity. The proxy is decrypted in memory only, kept there briefly (never past its expiry) for the job's next
 * files. A job whose delegation expired or was deleted fails for good with the reason, before storage is touched.
 */
@ApplicationScoped
public class JobCredentials {

    private static final int KEPT_JOBS = 10_000;

    /** A job's delegation: FTS3's cred_id and the owner's DN; the job's value never changes. */
    private record Owner(String credId, String dn) {
    }

    private record Decrypted(ClientCertificate certificate, Instant until) {
        @Override
        public String toString() {
            return "Decrypted[" + certificate + "]";
        }
    }

    private final Pool pool;
    private final DelegatedCredentials delegations;
    private final DelegationCipher cipher;
    private final DelegationConfig config;

    @Inject
    JobCredentials(Pool pool, DelegatedCredentials delegations, DelegationCipher cipher, DelegationConfig config) {
        this.pool = pool;
        this.delegations = delegations;
        this.cipher = cipher;
        this.config = config;
    }

    private final Map<UUID, Optional<Owner>> owners = Collections.synchronizedMap(new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<UUID, Optional<Owner>> eldest) {
            return size() > KEPT_JOBS;
        }
    });
    private final Map<Owner, Decrypted> proxies = new ConcurrentHashMap<>();

    /** The credentials of {@code f}'s copy from {@code source} to {@code destination}; {@code phase} names a failure's. */
    public StorageCredentials forCopy(ClaimedFile f, URI source, URI destination, String phase) throws MoverException {
        boolean secureSource = takesProxy(source);
        boolean secureDestination = takesProxy(destination);
        if (!secureSource && !secureDestination) {
            return StorageCredentials.SERVICE;
        }
        Optional<Owner> owner = owners.get(f.jobId());
        if (owner == null) {
            owner = owner(f.jobId());  // outside the map's lock: copies of other jobs need not wait for this query
            owners.put(f.jobId(), owner);
        }
        if (owner.isEmpty()) {
            return StorageCredentials.SERVICE;
        }
        ClientCertificate proxy = proxy(owner.get(), phase);
        return new StorageCredentials(secureSource ? proxy : null, secureDestination ? proxy : null);
    }

    private Optional<Owner> owner(UUID job) {
        Iterator<Row> rows = pool.preparedQuery("SELECT cred_id, user_dn FROM job WHERE job_id = $1").execute(Tuple.of(job))
                .await().atMost(Db.WAIT).iterator();
        if (!rows.hasNext()) {
            return Optional.empty();
        }
        Row r = rows.next();
        return r.getString(0) == null ? Optional.empty() : Optional.of(new Owner(r.getString(0), r.getString(1)));
    }

    private ClientCertificate proxy(Owner owner, String phase) throws MoverException {
        Instant now = Instant.now();
        Decrypted kept = proxies.get(owner);
        if (kept != null && now.isBefore(kept.until())) {
            return kept.certificate();
        }
        proxies.remove(owner);
        Optional<DelegatedCredentials.Delegated> stored = delegations.proxy(owner.credId(), owner.dn(), now.atOffset(ZoneOffset.UTC))
                .await().atMost(Db.WAIT);
        if (stored.isEmpty()) {
            throw new MoverException(MoverException.Code.PERMISSION_DENIED, phase, "the job's delegated proxy (delegation id "
                    + owner.credId() + " of " + owner.dn() + ") has expired or was deleted: delegate again (fts-rest-delegate) and resubmit");
        }
        ClientCertificate certificate;
        try {
            String pem = new String(cipher.decrypt(stored.get().sealedProxy(), DelegationCipher.row(owner.credId(), owner.dn()),
                    DelegationCipher.PROXY_COLUMN), StandardCharsets.US_ASCII);
            certificate = new ClientCertificate(ProxyDelegation.privateKey(pem), ProxyDelegation.certificates(pem));
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new MoverException(MoverException.Code.PERMISSION_DENIED, phase, "the job's delegated proxy (delegation id "
                    + owner.credId() + ") cannot be read with this scheduler's delegation key: delegate again and resubmit");
        }
        OffsetDateTime expires = stored.get().terminationTime();
        Instant until = now.plus(config.engineCacheFor());
        proxies.put(owner, new Decrypted(certificate, until.isBefore(expires.toInstant()) ? until : expires.toInstant()));
        return certificate;
    }

    /** https (and davs), where the proxy is the TLS client certificate, and root/roots, where it is gsi's credential. */
    private static boolean takesProxy(URI u) {
        String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(java.util.Locale.ROOT);
        return "https".equals(WebDavSchemes.transport(u)) || scheme.equals("root") || scheme.equals("roots");
    }
}
