package io.ferry.scheduler.credentials;

import io.ferry.movers.BearerToken;
import io.ferry.movers.MoverException;
import io.ferry.scheduler.config.SchedulerConfig;
import io.ferry.scheduler.db.Db;
import io.ferry.scheduler.queue.ClaimedFile;
import io.ferry.scheduler.submission.FileTokens;
import io.ferry.storageurl.StorageUrl;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.quarkus.runtime.StartupEvent;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * Storage tokens obtained from the token a job was submitted with, for the files that brought none. Soon after
 * submission ({@link SubmitterTokenExchanger}, or the first copy that needs it, whichever comes first) the
 * submitter's token is exchanged once (RFC 8693, asking for {@code offline_access}) for a long-lived one: the
 * refresh token where the issuer grants one, else the access token it answers. At copy time each side of the file
 * gets the job's token for that SE, side and origin ({@link ExchangeScope}, fixed at submission), obtained from the
 * long-lived one at its first use (refresh grant, or exchange), sealed and reused until it nears expiry: a job asks
 * the issuer once plus once per SE and side, however many files it has.
 * <p>
 * An issuer that does not answer (5xx, timeout, refused connection) defers the file ({@link StorageTokenDeferred})
 * with exponential backoff kept per job; one that refuses (4xx: {@code invalid_grant}, {@code access_denied}) fails
 * the files that need that token for good with its answer. No token is ever part of a message or log line.
 */
@ApplicationScoped
public class SubmitterTokens {

    private static final Logger LOG = Logger.getLogger(SubmitterTokens.class);
    private static final int BATCH = 20;
    private static final String LONG_LIVED_SCOPE = "offline_access";

    private final SchedulerConfig config;
    private final Pool pool;
    private final TokenSeal seal;
    private final TokenExchangeClient issuers;

    @Inject
    SubmitterTokens(SchedulerConfig config, Pool pool, TokenSeal seal, TokenExchangeClient issuers) {
        this.config = config;
        this.pool = pool;
        this.seal = seal;
        this.issuers = issuers;
    }

    /** One replica asks for one job's tokens at a time: its other files wait for that answer instead of asking too. */
    private final Object[] jobLocks = new Object[64];
    private Map<String, SchedulerConfig.StorageTokens.Exchange> byIssuer;

    void onStart(@Observes StartupEvent e) {
        for (int i = 0; i < jobLocks.length; i++) {
            jobLocks[i] = new Object();
        }
        byIssuer = config.storageTokens().exchange().values().stream()
                .collect(Collectors.toMap(SchedulerConfig.StorageTokens.Exchange::issuer, x -> x, (a, b) -> a));
    }

    /** Exchanges the submitter tokens that are due (new, or whose backoff ended) for long-lived ones; answers how many were due. */
    @WithSpan
    public int exchangeDue() {
        List<SubmitterTokenRows.Due> due = pool.withConnection(c -> SubmitterTokenRows.claimDue(c, null, BATCH)).await().atMost(Db.WAIT);
        for (SubmitterTokenRows.Due d : due) {
            synchronized (lock(d.job())) {
                exchange(d);
            }
        }
        return due.size();
    }

    /**
     * The bearer token for {@code f}'s {@code side} ("source" or "destination") at SE {@code se}, canonical URL {@code url},
     * obtained from its job's submitter token; empty when the job has none for it (the file brought its own, or the
     * job was not submitted with an exchangeable token).
     */
    public Optional<BearerToken> forSide(ClaimedFile f, String se, String side, String url, String phase) throws MoverException, StorageTokenDeferred {
        StorageUrl canonical = StorageUrl.tryParse(url).orElse(null);
        if (canonical == null) {
            return Optional.empty();
        }
        String audience = ExchangeScope.origin(canonical);
        Optional<SubmitterTokenRows.SideToken> row = side(f.jobId(), se, side, audience);
        if (row.isEmpty()) {
            return Optional.empty();
        }
        Optional<BearerToken> usable = usable(f.jobId(), row.get(), side, phase);
        if (usable.isPresent()) {
            return usable;
        }
        synchronized (lock(f.jobId())) {
            // another file of the job may have got it while this one waited
            SubmitterTokenRows.SideToken now = side(f.jobId(), se, side, audience).orElseThrow();
            usable = usable(f.jobId(), now, side, phase);
            return usable.isPresent() ? usable : Optional.of(obtain(f.jobId(), se, side, audience, now, phase));
        }
    }

    private Optional<SubmitterTokenRows.SideToken> side(UUID job, String se, String side, String audience) {
        return pool.withConnection(c -> SubmitterTokenRows.side(c, job, se, side, audience)).await().atMost(Db.WAIT);
    }

    /** The stored narrowed token while it is good for longer than {@code refresh-before}; a refusal stored for it fails the file. */
    private Optional<BearerToken> usable(UUID job, SubmitterTokenRows.SideToken t, String side, String phase) throws MoverException {
        if (t.refused() != null) {
            throw refused(side, phase, t.refused());
        }
        if (t.sealed() == null || t.expiresAt().isBefore(OffsetDateTime.now(ZoneOffset.UTC).plus(config.storageTokens().refreshBefore()))) {
            return Optional.empty();
        }
        return Optional.of(new BearerToken(open(t.sealed(), job, t.tokenNo(), side, phase)));
    }

    private BearerToken obtain(UUID job, String se, String side, String audience, SubmitterTokenRows.SideToken t, String phase)
            throws MoverException, StorageTokenDeferred {
        SubmitterTokenRows.State state = state(job);
        if (state.refused() == null && state.longLived() == null) {
            // not exchanged yet (the exchanger's pass has not come to it): this copy does it
            List<SubmitterTokenRows.Due> due = pool.withConnection(c -> SubmitterTokenRows.claimDue(c, job, 1)).await().atMost(Db.WAIT);
            due.forEach(this::exchange);
            state = state(job);
        }
        if (state.refused() != null) {
            throw refused(side, phase, state.refused());
        }
        if (state.longLived() == null) {
            throw deferred(state, "the submitter's token has not been exchanged yet");
        }
        SchedulerConfig.StorageTokens.Exchange issuer = byIssuer.get(state.issuer());
        if (issuer == null) {
            String why = "the token issuer " + state.issuer() + " is no longer configured to exchange tokens for the scheduler";
            refuse(job, why);
            throw refused(side, phase, why);
        }
        String longLived = open(state.longLived(), job, SubmitterTokenRows.LONG_LIVED_SEAL, side, phase);
        TokenExchangeClient.Granted granted;
        try {
            granted = "refresh_token".equals(state.longKind())
                    ? issuers.refresh(issuer, longLived, t.scope(), audience)
                    : issuers.exchange(issuer, longLived, t.scope(), audience);
        } catch (TokenExchangeClient.ExchangeFailed e) {
            String why = "the token issuer " + issuer.issuer() + " gave no " + t.scope() + " token for " + audience + ": " + e.getMessage();
            if (e.refused()) {
                pool.withConnection(c -> SubmitterTokenRows.refuseSide(c, job, se, side, audience, why)).await().atMost(Db.WAIT);
                throw refused(side, phase, why);
            }
            throw deferred(backoff(job), why);
        }
        Instant expiry = FileTokens.wellFormed(granted.accessToken(), Instant.now()) ? FileTokens.expiry(granted.accessToken()) : null;
        if (expiry == null) {
            String why = "the token issuer " + issuer.issuer() + " answered the request for " + t.scope() + " at " + audience + " with no usable token";
            throw deferred(backoff(job), why);
        }
        byte[] rotated = "refresh_token".equals(state.longKind()) && granted.refreshToken() != null && !granted.refreshToken().equals(longLived)
                ? seal.seal(granted.refreshToken(), job, SubmitterTokenRows.LONG_LIVED_SEAL) : null;
        byte[] sealed = seal.seal(granted.accessToken(), job, t.tokenNo());
        pool.withConnection(c -> SubmitterTokenRows.storeSide(c, job, se, side, audience, sealed, expiry.atOffset(ZoneOffset.UTC), rotated))
                .await().atMost(Db.WAIT);
        LOG.debugf("job %s: %s token for %s obtained from the submitter's, valid until %s", job, side, audience, expiry);
        return new BearerToken(granted.accessToken());
    }

    /** The submitter's token of a claimed row exchanged for a long-lived one, or the failure recorded. */
    private void exchange(SubmitterTokenRows.Due d) {
        SchedulerConfig.StorageTokens.Exchange issuer = byIssuer.get(d.issuer());
        if (issuer == null) {
            refuse(d.job(), "the token issuer " + d.issuer() + " is no longer configured to exchange tokens for the scheduler");
            return;
        }
        String submitter;
        try {
            submitter = seal.open(d.sealed(), d.job(), SubmitterTokenRows.SUBMITTER_SEAL);
        } catch (TokenSeal.SealBroken e) {
            refuse(d.job(), "the submitter's token cannot be opened (was the storage-tokens key changed since the job was submitted?)");
            return;
        }
        String scope = FileTokens.scope(submitter);
        scope = scope == null || scope.isBlank() ? LONG_LIVED_SCOPE : scope + " " + LONG_LIVED_SCOPE;
        try {
            TokenExchangeClient.Granted granted = issuers.exchange(issuer, submitter, scope, null);
            boolean refresh = granted.refreshToken() != null;
            byte[] sealed = seal.seal(refresh ? granted.refreshToken() : granted.accessToken(), d.job(), SubmitterTokenRows.LONG_LIVED_SEAL);
            pool.withConnection(c -> SubmitterTokenRows.storeLongLived(c, d.job(), sealed, refresh ? "refresh_token" : "access_token"))
                    .await().atMost(Db.WAIT);
            LOG.debugf("job %s: the submitter's token exchanged at %s for %s", d.job(), issuer.issuer(), refresh ? "a refresh token" : "an access token");
        } catch (TokenExchangeClient.ExchangeFailed e) {
            if (e.refused()) {
                refuse(d.job(), "the token issuer " + issuer.issuer() + " refused to exchange the submitter's token: " + e.getMessage());
            } else {
                OffsetDateTime next = backoffAt(d.job());
                LOG.warnf("job %s: the submitter's token could not be exchanged (%s); asked again at %s", d.job(), e.getMessage(), next);
            }
        }
    }

    private void refuse(UUID job, String why) {
        LOG.warnf("job %s: %s", job, why);
        pool.withConnection(c -> SubmitterTokenRows.refuse(c, job, why)).await().atMost(Db.WAIT);
    }

    private SubmitterTokenRows.State state(UUID job) {
        return pool.withConnection(c -> SubmitterTokenRows.state(c, job)).await().atMost(Db.WAIT).orElseThrow();
    }

    private OffsetDateTime backoffAt(UUID job) {
        return pool.withConnection(c -> SubmitterTokenRows.backoff(c, job, seconds(config.storageTokens().issuerBackoff()),
                seconds(config.storageTokens().issuerBackoffMax()))).await().atMost(Db.WAIT);
    }

    private SubmitterTokenRows.State backoff(UUID job) {
        backoffAt(job);
        return state(job);
    }

    /**
     * The file waits until the job's next try at the issuer: at least a second, and no longer than the first backoff
     * while nothing failed yet (another replica is asking right now, under its lease).
     */
    private StorageTokenDeferred deferred(SubmitterTokenRows.State state, String why) {
        Duration wait = Duration.between(OffsetDateTime.now(ZoneOffset.UTC), state.nextTryAt());
        Duration max = state.failures() == 0 ? config.storageTokens().issuerBackoff() : config.storageTokens().issuerBackoffMax();
        wait = wait.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : wait.compareTo(max) > 0 ? max : wait;
        return new StorageTokenDeferred(why + "; tried again in " + wait.toMillis() + " ms", wait);
    }

    private static MoverException refused(String side, String phase, String why) {
        return new MoverException(MoverException.Code.PERMISSION_DENIED, phase, "no " + side + " token: " + why);
    }

    private String open(byte[] sealed, UUID job, int tokenNo, String side, String phase) throws MoverException {
        try {
            return seal.open(sealed, job, tokenNo);
        } catch (TokenSeal.SealBroken e) {
            throw new MoverException(MoverException.Code.PERMISSION_DENIED, phase, "the " + side + " token obtained from the submitter's cannot be "
                    + "opened (was the storage-tokens key changed since the job was submitted?)");
        }
    }

    private Object lock(UUID job) {
        return jobLocks[Math.floorMod(job.hashCode(), jobLocks.length)];
    }

    private static double seconds(Duration d) {
        return d.toMillis() / 1000.0;
    }
}
