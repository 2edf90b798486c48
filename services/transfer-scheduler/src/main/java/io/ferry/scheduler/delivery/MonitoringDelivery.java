package io.ferry.scheduler.delivery;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.ferry.engineloop.EngineLoop;
import io.ferry.scheduler.config.MonitoringStompConfig;
import io.ferry.scheduler.db.Db;
import io.ferry.scheduler.db.Tx;
import io.ferry.scheduler.loops.RunsWithoutEngine;
import io.ferry.scheduler.submission.TapeParams;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Publishes FTS3's monitoring messages to the STOMP broker: the outbox's second reader. Each transfer record is copied
 * to {@code monitoring_outbox} when written (V19's trigger, only while this is enabled) for a completion message, and
 * each change of a file's state for a state message and, when its copy starts, a start message (V26's trigger, while
 * state messages are on too); this loop sends the waiting
 * ones oldest first, waits for the broker's receipts, and deletes them in the transaction that locked them. While the
 * broker is away they stay and delivery pauses as a whole (DeliveryPause), so none is lost; a batch whose receipts did
 * not all come is sent again whole (at least once, as FTS3's own). Consumers tell repeats apart by {@code tr_id}.
 * The gauge {@code ferry_monitoring_pending_messages} is the table's {@link OutboxBacklog}, as for the transfer records:
 * 0 once a pass has sent every message it found; while the broker is away, a count at most
 * {@link OutboxBacklog#COUNT_EVERY} old, exact up to {@link OutboxBacklog#EXACT_COUNT_UP_TO} and above that
 * PostgreSQL's estimate.
 */
@ApplicationScoped
public class MonitoringDelivery extends EngineLoop implements RunsWithoutEngine {

    private static final Logger LOG = Logger.getLogger(MonitoringDelivery.class);

    private final MonitoringStompConfig config;
    private final Pool pool;
    private final Vertx vertx;
    private final ObjectMapper json;
    private final MeterRegistry metrics;
    private final int httpPort;
    private final DeliveryPause pause = new DeliveryPause();
    private final OutboxBacklog backlog;
    private StompPublisher publisher;
    private String endpoint;
    private Counter published;

    @Inject
    MonitoringDelivery(MonitoringStompConfig config, Pool pool, Vertx vertx, ObjectMapper json, MeterRegistry metrics,
                       @ConfigProperty(name = "quarkus.http.port", defaultValue = "8081") int httpPort) {
        this.config = config;
        this.pool = pool;
        this.vertx = vertx;
        this.json = json;
        this.metrics = metrics;
        this.httpPort = httpPort;
        this.backlog = new OutboxBacklog(pool, "monitoring_outbox", config.maxBackoff());
    }

    /** Every replica writes the switch: the trigger keeps messages only while a broker is configured. */
    void writeSwitch(@Observes StartupEvent e) {
        pool.preparedQuery("UPDATE monitoring_stomp SET enabled = $1, states = $2").execute(Tuple.of(config.enabled(), config.stateMessages()))
                .await().atMost(Db.WAIT);
    }

    @Override
    public String name() {
        return "monitoring-stomp";
    }

    @Override
    protected boolean enabled() {
        return config.enabled();
    }

    @Override
    protected void beforeStart() {
        backlog.register(metrics, "ferry_monitoring_pending_messages", "FTS3 monitoring messages not yet taken by the STOMP broker");
        published = Counter.builder("ferry_monitoring_published_messages_total").register(metrics);
        endpoint = config.endpoint().orElseGet(() -> "https://" + hostName() + ":" + httpPort);
        publisher = new StompPublisher(vertx, config);
    }

    @Override
    protected void afterStop() {
        publisher.close();
    }

    @Override
    protected Duration period() {
        return config.interval();
    }

    @Override
    protected void pass() {
        if (pause.deliverAll(() -> Tx.run(pool, this::publishBatch), config.batch())) {
            backlog.emptied();
        } else {
            backlog.countWhenDue();
        }
    }

    /** Publishes the oldest batch and deletes it once the broker took it: the messages sent, or {@link DeliveryPause#NOT_TAKEN}. */
    private int publishBatch(SqlConnection c) {
        List<Long> seqs = new ArrayList<>();
        List<StompPublisher.Message> messages = new ArrayList<>();
        Instant now = Instant.now();
        for (Row r : c.preparedQuery(WAITING).execute(Tuple.of(config.batch())).await().atMost(Db.WAIT)) {
            seqs.add(r.getLong("seq"));
            messages.add(message(r, now));
        }
        if (seqs.isEmpty()) {
            return 0;
        }
        String error = publisher.publish(messages);
        if (error != null) {
            int failures = pause.failed(config.interval(), config.maxBackoff());
            if (failures == 1) {
                LOG.infof("FTS3 monitoring messages wait in the outbox: %s (trying again with growing pauses, at most %s)", error, config.maxBackoff());
            } else {
                LOG.debugf("%d monitoring message(s) not published (%d failures in a row): %s", seqs.size(), failures, error);
            }
            return DeliveryPause.NOT_TAKEN;
        }
        c.preparedQuery("DELETE FROM monitoring_outbox WHERE seq = ANY($1)").execute(Tuple.of(seqs.toArray(new Long[0])))
                .await().atMost(Db.WAIT);
        published.increment(seqs.size());
        int failures = pause.succeeded();
        if (failures > 0) {
            LOG.infof("the STOMP broker takes FTS3 monitoring messages again (after %d failed tries)", failures);
        }
        return seqs.size();
    }

    /** The waiting messages, oldest first, with what of their job and file the record does not carry (gone: nulls). */
    private static final String WAITING = "SELECT m.seq, m.kind, m.payload, j.user_dn, j.state AS job_state, j.retry, j.timeout, j.job_metadata, "
            + "f.file_metadata, f.multiple_sources AS replicas, f.source_url AS current_source, j.job_type = 'H' AS multihop, "
            + "last.file_index = f.file_index AS last_hop, last.dest_url AS final_destination, f.scitag, j.params, j.overwrite_hop, "
            + "src.site AS source_site, dst.site AS dest_site, dst.base_urls ? 'tape' AS dest_tape "
            + "FROM monitoring_outbox m "
            + "LEFT JOIN transfer_file f ON f.file_id = (m.payload::jsonb ->> 'file_id')::bigint "
            + "LEFT JOIN job j ON j.job_id = f.job_id "
            + "LEFT JOIN storage_endpoint src ON src.name = f.source_se "
            + "LEFT JOIN storage_endpoint dst ON dst.name = f.dest_se "
            + "LEFT JOIN LATERAL (SELECT l.file_index, l.dest_url FROM transfer_file l WHERE l.job_id = f.job_id "
            + "ORDER BY l.file_index DESC LIMIT 1) last ON true "
            + "ORDER BY m.seq LIMIT $1 FOR UPDATE OF m SKIP LOCKED";

    /** As FTS3 gives url-copy its overwrite-on-disk option: asked and archiving, on a multihop job with overwrite_hop the last hop only. */
    private static boolean overwriteOnDisk(Row r) {
        boolean lastHop = !Boolean.TRUE.equals(r.getBoolean("multihop")) || Boolean.TRUE.equals(r.getBoolean("last_hop"));
        return TapeParams.ofStored(r.getString("params")).overwritesOnDiskOnly() && (!Boolean.TRUE.equals(r.getBoolean("overwrite_hop")) || lastHop);
    }

    private StompPublisher.Message message(Row r, Instant now) {
        String kind = r.getString("kind");
        return "complete".equals(kind) ? completion(r, now) : stateChange(r, kind);
    }

    /** A state or start message (V26's trigger keeps them only while they are wanted: see writeSwitch). */
    private StompPublisher.Message stateChange(Row r, String kind) {
        try {
            var change = json.readTree(r.getString("payload"));
            Fts3StateMessages.Job job = r.getString("user_dn") == null ? null
                    : new Fts3StateMessages.Job(r.getString("user_dn"), r.getString("job_state"), r.getInteger("retry"),
                            r.getString("job_metadata"), r.getString("file_metadata"), r.getString("source_site"), r.getString("dest_site"));
            boolean start = "start".equals(kind);
            var body = start ? Fts3StateMessages.start(json, change, job, endpoint) : Fts3StateMessages.state(json, change, job);
            return stomp(start ? config.startDestination() : config.stateDestination(), change.path("vo").asText(), body);
        } catch (IOException e) {
            throw new IllegalStateException("unreadable state change in the monitoring outbox", e);
        }
    }

    private StompPublisher.Message completion(Row r, Instant now) {
        try {
            var record = json.readTree(r.getString("payload"));
            // the sources are tried in order and never again: a failed attempt was the file's last replica unless the
            // file has moved on to another source since
            boolean lastReplica = record.path("source_url").asText().equals(r.getString("current_source"));
            Fts3CompletionMessage.Job job = r.getString("user_dn") == null ? null
                    : new Fts3CompletionMessage.Job(r.getString("user_dn"), r.getInteger("retry"), r.getInteger("timeout"),
                            r.getString("job_metadata"), r.getString("file_metadata"), Boolean.TRUE.equals(r.getBoolean("replicas")), lastReplica,
                            Boolean.TRUE.equals(r.getBoolean("multihop")), !Boolean.TRUE.equals(r.getBoolean("multihop")) || Boolean.TRUE.equals(r.getBoolean("last_hop")),
                            r.getString("final_destination"), r.getInteger("scitag"), overwriteOnDisk(r),
                            Boolean.TRUE.equals(r.getBoolean("dest_tape")) && TapeParams.ofStored(r.getString("params")).archive());
            var body = Fts3CompletionMessage.build(json, record, job, endpoint, now);
            return stomp(config.completeDestination(), body.path("vo").asText(), body);
        } catch (IOException e) {
            throw new IllegalStateException("unreadable transfer record in the monitoring outbox", e);
        }
    }

    /** One message to FTS3's {@code destination}; FTS3 sets the VO as a header: consumers filter on it without parsing the body. */
    private StompPublisher.Message stomp(String destination, String vo, Object body) throws IOException {
        String text = json.writeValueAsString(body) + (config.eot() ? "\u0004" : "");
        return new StompPublisher.Message(config.destinationPrefix() + destination, Map.of("vo", vo, "content-type", "text/plain"),
                text.getBytes(StandardCharsets.UTF_8));
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getCanonicalHostName();
        } catch (Exception e) {
            return "localhost";
        }
    }
}
