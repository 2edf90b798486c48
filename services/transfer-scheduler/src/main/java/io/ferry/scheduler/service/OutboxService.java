package io.ferry.scheduler.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ferry.scheduler.client.AggregatorClient;
import io.ferry.scheduler.config.SchedulerConfig;
import io.ferry.scheduler.repository.Tx;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Delivers the outbox to rate-aggregator's {@code POST /records} in batches. A delivered batch is deleted in the
 * transaction that sent it; while the aggregator is away (or refuses the token) the records stay and are tried again
 * with a growing pause, so none is lost, and the record ids make a repeated delivery harmless. Records the
 * aggregator rejects as invalid are logged and dropped: sending them again cannot help.
 */
@ApplicationScoped
public class OutboxService extends EngineLoop {

    private static final Logger LOG = Logger.getLogger(OutboxService.class);

    @Inject
    SchedulerConfig config;

    @Inject
    Pool pool;

    @Inject
    @RestClient
    AggregatorClient aggregator;

    @Inject
    ObjectMapper json;

    @Inject
    MeterRegistry metrics;

    private final AtomicLong pending = new AtomicLong();
    private Counter delivered;
    private Counter rejected;

    void onStart(@Observes StartupEvent e) {
        Gauge.builder("ferry_outbox_pending_records", pending, AtomicLong::get)
                .description("transfer records not yet delivered to rate-aggregator").register(metrics);
        delivered = Counter.builder("ferry_outbox_delivered_records_total").register(metrics);
        rejected = Counter.builder("ferry_outbox_rejected_records_total").description("records rate-aggregator refused as invalid").register(metrics);
        if (config.engine().enabled()) {
            start("outbox");
        }
    }

    void onStop(@Observes ShutdownEvent e) {
        stop();
    }

    @Override
    protected Duration period() {
        return config.outbox().interval();
    }

    @Override
    protected void pass() {
        boolean more = true;
        while (more) {
            more = Tx.run(pool, c -> {
                List<String> ids = new ArrayList<>();
                List<String> payloads = new ArrayList<>();
                for (Row r : c.preparedQuery("SELECT record_id, payload FROM record_outbox WHERE next_attempt_at <= now() ORDER BY created_at "
                        + "LIMIT $1 FOR UPDATE SKIP LOCKED").execute(Tuple.of(config.outbox().batch())).await().atMost(FileOutcomes.WAIT)) {
                    ids.add(r.getString(0));
                    payloads.add(r.getString(1));
                }
                if (ids.isEmpty()) {
                    return false;
                }
                String error = send("[" + String.join(",", payloads) + "]", ids);
                if (error == null) {
                    c.preparedQuery("DELETE FROM record_outbox WHERE record_id = ANY($1)").execute(Tuple.of(ids.toArray(new String[0])))
                            .await().atMost(FileOutcomes.WAIT);
                    delivered.increment(ids.size());
                    return ids.size() == config.outbox().batch();
                }
                c.preparedQuery("UPDATE record_outbox SET attempts = attempts + 1, last_error = $2, next_attempt_at = now() + "
                                + "make_interval(secs => least($3, power(2, attempts)::double precision)) WHERE record_id = ANY($1)")
                        .execute(Tuple.of(ids.toArray(new String[0]), error, config.outbox().maxBackoff().toSeconds() * 1.0))
                        .await().atMost(FileOutcomes.WAIT);
                LOG.debugf("%d transfer record(s) not delivered: %s", ids.size(), error);
                return false;
            });
        }
        pending.set(pool.query("SELECT count(*) FROM record_outbox").execute().await().atMost(FileOutcomes.WAIT).iterator().next().getLong(0));
    }

    /** Null when the aggregator took the batch (invalid items included: they are dropped), else why not. */
    private String send(String batch, List<String> ids) {
        try {
            Response r = aggregator.ingest(batch).await().atMost(Duration.ofSeconds(30));
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
