package io.ferry.scheduler.webhooks;

import io.ferry.engineloop.EngineLoop;
import io.ferry.scheduler.credentials.TokenSeal;
import io.ferry.scheduler.db.Db;
import io.ferry.scheduler.loops.RunsWithoutEngine;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Delivers the webhook outbox ({@code webhook_event}). A pass claims due events by moving their next try past the
 * time a send can take ({@code FOR UPDATE SKIP LOCKED}: replicas never claim the same event), commits, sends, then
 * records the outcome: no transaction stays open during a send, and an event whose sender died is sent again, with
 * the same event id, once its claim lapses. A failed try waits, doubling from {@code initial-backoff} up to
 * {@code max-backoff}; an event still undelivered after {@code max-age} is given up, its last error kept, and
 * deleted with the delivered ones after {@code retention}. Runs on every replica, the engine's or not.
 */
@ApplicationScoped
public class WebhookDelivery extends EngineLoop implements RunsWithoutEngine {

    private static final Logger LOG = Logger.getLogger(WebhookDelivery.class);

    private final WebhookConfig config;
    private final Pool pool;
    private final WebhookVos vos;
    private final WebhookSender sender;

    @Inject
    WebhookDelivery(WebhookConfig config, Pool pool, WebhookVos vos, WebhookSender sender) {
        this.config = config;
        this.pool = pool;
        this.vos = vos;
        this.sender = sender;
    }

    record Claimed(UUID id, String vo, String kind, URI url, String body, int attempts, OffsetDateTime createdAt) {
    }

    @Override
    public String name() {
        return "webhooks";
    }

    @Override
    protected Duration period() {
        return config.interval();
    }

    @Override
    protected boolean enabled() {
        return config.enabled();
    }

    /** When the next retention sweep is due: once a minute is plenty for a retention of days. */
    private long nextSweepNanos = System.nanoTime();

    @Override
    protected void pass() {
        if (System.nanoTime() - nextSweepNanos >= 0) {
            nextSweepNanos = System.nanoTime() + Duration.ofMinutes(1).toNanos();
            pool.preparedQuery("DELETE FROM webhook_event WHERE (delivered_at IS NOT NULL OR failed_at IS NOT NULL) "
                    + "AND coalesce(delivered_at, failed_at) < now() - make_interval(secs => $1)")
                    .execute(Tuple.of((double) config.retention().toSeconds())).await().atMost(Db.WAIT);
        }
        List<Claimed> claimed;
        do {
            claimed = claim();
            for (Claimed e : claimed) {
                deliver(e);
            }
        } while (claimed.size() == config.batch());
    }

    private List<Claimed> claim() {
        // each claimed event may take a whole timeout, one after the other: the claim outlasts them all
        long claimSeconds = config.timeout().toSeconds() * (config.batch() + 1) + 60;
        List<Claimed> out = new ArrayList<>();
        for (Row r : pool.preparedQuery("UPDATE webhook_event SET next_attempt_at = now() + make_interval(secs => $2), attempts = attempts + 1 "
                + "WHERE event_id IN (SELECT event_id FROM webhook_event WHERE delivered_at IS NULL AND failed_at IS NULL AND next_attempt_at <= now() "
                + "ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED) RETURNING event_id, vo, kind, url, body::text, attempts, created_at")
                .execute(Tuple.of(config.batch(), (double) claimSeconds)).await().atMost(Db.WAIT)) {
            out.add(new Claimed(r.getUUID(0), r.getString(1), r.getString(2), URI.create(r.getString(3)), r.getString(4), r.getInteger(5),
                    r.getOffsetDateTime(6)));
        }
        return out;
    }

    private void deliver(Claimed e) {
        String error;
        try {
            WebhookVos.ForDelivery vo = vos.forDelivery(e.vo());
            if (!vo.hosts().allows(e.url().getHost())) {
                // the allow-list may have shrunk since the job was submitted
                error = "not sent: host " + e.url().getHost() + " is no longer allowed for VO " + e.vo();
            } else if (vo.secret().isEmpty()) {
                error = "not sent: VO " + e.vo() + " has no webhook secret yet (POST /webhooks/vos/" + e.vo() + "/secret)";
            } else {
                byte[] body = e.body().getBytes(StandardCharsets.UTF_8);
                long t = Instant.now().getEpochSecond();
                Map<String, String> headers = new LinkedHashMap<>();
                headers.put("Ferry-Event-Id", e.id().toString());
                headers.put("Ferry-Event-Type", e.kind());
                headers.put("Ferry-Signature", WebhookSignature.header(vo.secret().get(), t, body));
                error = sender.post(e.url(), headers, body).error();
            }
        } catch (TokenSeal.SealBroken broken) {
            error = "not sent: the VO's webhook secret does not open with this scheduler's key; make a new one";
        } catch (RuntimeException ex) {
            error = "not sent: " + ex;
        }
        if (error == null) {
            pool.preparedQuery("UPDATE webhook_event SET delivered_at = now(), last_error = NULL WHERE event_id = $1")
                    .execute(Tuple.of(e.id())).await().atMost(Db.WAIT);
            return;
        }
        boolean tooOld = e.createdAt().toInstant().plus(config.maxAge()).isBefore(Instant.now());
        if (tooOld) {
            LOG.infof("webhook event %s (%s) given up after %d tries: %s", e.id(), e.kind(), e.attempts(), error);
        } else {
            LOG.debugf("webhook event %s not delivered (try %d): %s", e.id(), e.attempts(), error);
        }
        pool.preparedQuery("UPDATE webhook_event SET last_error = $2, next_attempt_at = now() + make_interval(secs => $3), "
                        + "failed_at = CASE WHEN $4 THEN now() END WHERE event_id = $1")
                .execute(Tuple.of(e.id(), error, backoff(e.attempts()).toMillis() / 1000.0, tooOld)).await().atMost(Db.WAIT);
    }

    /** The wait after the given number of failed tries. */
    Duration backoff(int attempts) {
        Duration d = config.initialBackoff();
        for (int i = 1; i < attempts && d.compareTo(config.maxBackoff()) < 0; i++) {
            d = d.multipliedBy(2);
        }
        return d.compareTo(config.maxBackoff()) > 0 ? config.maxBackoff() : d;
    }
}
