package io.ferry.scheduler.delivery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ferry.engineloop.EngineLoop;
import io.ferry.scheduler.config.SchedulerConfig;
import io.ferry.scheduler.db.Db;
import io.ferry.scheduler.db.Tx;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Delivers the outbox to rate-aggregator's {@code POST /records} in batches, oldest first. A delivered batch is
 * deleted in the transaction that sent it; while the aggregator is away (or refuses the token) the records stay and
 * delivery pauses, longer after each failure (up to {@code outbox.max-backoff}), so none is lost, and the record ids
 * make a repeated delivery harmless. The pause is the loop's, not each record's: marking every waiting record after
 * every failed try rewrote the whole batch each time, without end during a long outage. Records the aggregator rejects as invalid are logged and dropped: sending them
 * again cannot help.
 */
@ApplicationScoped
public class OutboxDelivery extends EngineLoop {

    private static final Logger LOG = Logger.getLogger(OutboxDelivery.class);

    private final SchedulerConfig config;
    private final Pool pool;
    private final RecordIngest aggregator;
    private final ObjectMapper json;
    private final MeterRegistry metrics;

    private final OutboxBacklog backlog;
    private final DeliveryPause pause = new DeliveryPause();
    private final Counter delivered;
    private final Counter rejected;

    /** The outbox's meters exist on every replica, the engine's or not. */
    @Inject
    OutboxDelivery(SchedulerConfig config, Pool pool, RecordIngest aggregator, ObjectMapper json, MeterRegistry metrics) {
        this.config = config;
        this.pool = pool;
        this.aggregator = aggregator;
        this.json = json;
        this.metrics = metrics;
        backlog = new OutboxBacklog(pool, "record_outbox", config.outbox().maxBackoff());
        backlog.register(metrics, "ferry_outbox_pending_records", "transfer records not yet delivered to rate-aggregator");
        delivered = Counter.builder("ferry_outbox_delivered_records_total").register(metrics);
        rejected = Counter.builder("ferry_outbox_rejected_records_total").description("records rate-aggregator refused as invalid").register(metrics);
    }

    @Override
    public String name() {
        return "outbox";
    }

    @Override
    protected Duration period() {
        return config.outbox().interval();
    }

    @Override
    protected void pass() {
        if (pause.deliverAll(() -> Tx.run(pool, this::deliverBatch), config.outbox().batch())) {
            backlog.emptied();
        } else {
            backlog.countWhenDue();
        }
    }

    /** Sends the oldest batch and deletes it once the aggregator took it: the records sent, or {@link DeliveryPause#NOT_TAKEN}. */
    private int deliverBatch(SqlConnection c) {
        List<String> ids = new ArrayList<>();
        List<String> payloads = new ArrayList<>();
        for (Row r : c.preparedQuery("SELECT record_id, payload FROM record_outbox WHERE next_attempt_at <= now() "
                + "ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED").execute(Tuple.of(config.outbox().batch())).await().atMost(Db.WAIT)) {
            ids.add(r.getString(0));
            payloads.add(r.getString(1));
        }
        if (ids.isEmpty()) {
            return 0;
        }
        String error = send("[" + String.join(",", payloads) + "]", ids);
        if (error != null) {
            paused(error, ids.size());
            return DeliveryPause.NOT_TAKEN;
        }
        c.preparedQuery("DELETE FROM record_outbox WHERE record_id = ANY($1)").execute(Tuple.of(ids.toArray(new String[0])))
                .await().atMost(Db.WAIT);
        delivered.increment(ids.size());
        int failures = pause.succeeded();
        if (failures > 0) {
            LOG.infof("rate-aggregator takes transfer records again (after %d failed tries)", failures);
        }
        return ids.size();
    }

    /** Delivery failed: the next try waits (DeliveryPause). */
    private void paused(String error, int batch) {
        int failures = pause.failed(config.outbox().interval(), config.outbox().maxBackoff());
        if (failures == 1) {
            LOG.infof("transfer records wait in the outbox: %s (trying again with growing pauses, at most %s)", error, config.outbox().maxBackoff());
        } else {
            LOG.debugf("%d transfer record(s) not delivered (%d failures in a row): %s", batch, failures, error);
        }
    }

    /** Null when the aggregator took the batch (invalid items included: they are dropped), else why not. */
    private String send(String batch, List<String> ids) {
        try {
            Response r = aggregator.ingest(batch).await().indefinitely();
            if (r.getStatus() == 207) {
                JsonNode body = json.readTree(r.readEntity(String.class));
                for (JsonNode rej : body.path("rejected")) {
                    LOG.warnf("rate-aggregator rejected transfer record %s: %s", rej.path("id").asText(), rej.path("errors"));
                    rejected.increment();
                }
            }
            return null;
        } catch (WebApplicationException e) {
            int status = e.getResponse().getStatus();
            if (status == 400 || status == 422) {
                LOG.warnf("rate-aggregator rejected %d transfer record(s) as invalid: %s", ids.size(), e.getResponse().readEntity(String.class));
                rejected.increment(ids.size());
                return null;
            }
            return "rate-aggregator answered HTTP " + status;
        } catch (Exception e) {
            return "rate-aggregator unreachable: " + e;
        }
    }
}
