package io.ferry.scheduler.credentials;

import io.ferry.engineloop.EngineLoop;
import io.ferry.scheduler.config.SchedulerConfig;
import io.ferry.scheduler.db.Db;
import io.ferry.scheduler.submission.FileTokens;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Keeps the bearer tokens of queued files usable on long queues: a stored token that expires within
 * {@code storage-tokens.refresh-before} is exchanged at its issuer (RFC 8693) for a fresh one with the same scope,
 * sealed in its place — for every file of the job that uses it. Only issuers the operator configured
 * ({@code storage-tokens.exchange.*}) are asked; a token of any other issuer, one whose exchange fails, or one of a
 * job submitted with FTS3's {@code unmanaged_tokens}, is used as it is until it expires (its files then fail with
 * that reason).
 */
@ApplicationScoped
public class TokenRefresher extends EngineLoop {

    private static final Logger LOG = Logger.getLogger(TokenRefresher.class);
    private static final int BATCH = 100;

    private final SchedulerConfig config;
    private final Pool pool;
    private final TokenSeal seal;
    private final TokenExchangeClient exchanges;
    private final Map<String, SchedulerConfig.StorageTokens.Exchange> byIssuer;

    @Inject
    TokenRefresher(SchedulerConfig config, Pool pool, TokenSeal seal, TokenExchangeClient exchanges) {
        this.config = config;
        this.pool = pool;
        this.seal = seal;
        this.exchanges = exchanges;
        this.byIssuer = config.storageTokens().exchange().values().stream()
                .collect(Collectors.toMap(SchedulerConfig.StorageTokens.Exchange::issuer, x -> x, (a, b) -> a));
    }

    @Override
    public String name() {
        return "token-refresh";
    }

    @Override
    protected boolean enabled() {
        return !byIssuer.isEmpty();
    }

    @Override
    protected Duration period() {
        return config.storageTokens().refreshInterval();
    }

    @Override
    protected void pass() {
        OffsetDateTime before = OffsetDateTime.now(ZoneOffset.UTC).plus(config.storageTokens().refreshBefore());
        List<FileTokenRows.Expiring> due = pool.withConnection(c -> FileTokenRows.expiring(c, before, List.copyOf(byIssuer.keySet()), BATCH))
                .await().atMost(Db.WAIT);
        for (FileTokenRows.Expiring t : due) {
            refresh(t);
        }
    }

    private void refresh(FileTokenRows.Expiring t) {
        String token;
        try {
            token = seal.open(t.sealed(), t.job(), t.tokenNo());
        } catch (TokenSeal.SealBroken e) {
            return;  // its files fail with that reason when they come to use it
        }
        try {
            String fresh = exchanges.exchange(byIssuer.get(t.issuer()), token, FileTokens.scope(token));
            Instant expiry = FileTokens.expiry(fresh);
            if (!FileTokens.wellFormed(fresh, Instant.now()) || !t.issuer().equals(FileTokens.issuer(fresh))
                    || !expiry.isAfter(t.expiresAt().toInstant())) {
                LOG.warnf("token %d of job %s: the exchange at %s gave no later-expiring token of that issuer; the old one is kept",
                        t.tokenNo(), t.job(), t.issuer());
                return;
            }
            boolean replaced = pool.withConnection(c -> FileTokenRows.replace(c, t, seal.seal(fresh, t.job(), t.tokenNo()),
                    expiry.atOffset(ZoneOffset.UTC))).await().atMost(Db.WAIT);
            if (replaced) {
                LOG.debugf("token %d of job %s exchanged at %s, now valid until %s", t.tokenNo(), t.job(), t.issuer(), expiry);
            }
        } catch (TokenExchangeClient.ExchangeFailed e) {
            LOG.warnf("token %d of job %s could not be exchanged: %s; tried again in %s", t.tokenNo(), t.job(), e.getMessage(),
                    config.storageTokens().refreshInterval());
        }
    }
}
