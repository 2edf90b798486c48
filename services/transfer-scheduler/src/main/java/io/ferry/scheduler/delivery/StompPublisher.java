package io.ferry.scheduler.delivery;

import io.ferry.scheduler.config.MonitoringStompConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.stomp.Frame;
import io.vertx.ext.stomp.StompClient;
import io.vertx.ext.stomp.StompClientConnection;
import io.vertx.ext.stomp.StompClientOptions;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Publishes messages to the configured STOMP 1.2 broker (Vert.x's STOMP client) and waits for the broker's RECEIPT of
 * each: a message counts as published only then. One connection is kept open between batches; any failure closes it
 * and the next batch connects again. Called from one loop thread at a time; waits, so never on an event loop.
 */
public final class StompPublisher implements AutoCloseable {

    /** One message: where to, its extra headers, its body. */
    public record Message(String destination, Map<String, String> headers, byte[] body) {
    }

    private final Vertx vertx;
    private final MonitoringStompConfig config;
    private StompClient client;
    private StompClientConnection connection;

    public StompPublisher(Vertx vertx, MonitoringStompConfig config) {
        this.vertx = vertx;
        this.config = config;
    }

    /** Sends all, then waits for all receipts; null when the broker took every message, else why not (no secrets). */
    public String publish(List<Message> messages) {
        try {
            StompClientConnection c = connection();
            List<Future<Frame>> receipts = new ArrayList<>(messages.size());
            for (Message m : messages) {
                Map<String, String> headers = new HashMap<>(m.headers());
                headers.put(Frame.DESTINATION, m.destination());
                headers.put("persistent", "true");
                receipts.add(c.send(headers, Buffer.buffer(m.body())));
            }
            Future.all(receipts).toCompletionStage().toCompletableFuture()
                    .get(config.receiptTimeout().toMillis(), TimeUnit.MILLISECONDS);
            return null;
        } catch (Exception e) {
            close();
            Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            return "STOMP broker " + config.host() + ":" + config.port() + " did not take the messages: "
                    + (cause instanceof TimeoutException ? "no receipt within " + config.receiptTimeout() : String.valueOf(cause.getMessage()));
        }
    }

    private StompClientConnection connection() throws Exception {
        if (connection != null && connection.isConnected()) {
            return connection;
        }
        close();
        StompClientOptions options = new StompClientOptions().setHost(config.host()).setPort(config.port())
                .setSsl(config.tls()).setAcceptedVersions(List.of("1.2")).setAutoComputeContentLength(true)
                .setHeartbeat(new JsonObject().put("x", 10_000).put("y", 0));
        options.setConnectTimeout((int) Math.min(Integer.MAX_VALUE, config.receiptTimeout().toMillis()));
        config.login().ifPresent(options::setLogin);
        config.passcode().ifPresent(options::setPasscode);
        config.virtualHost().ifPresent(options::setVirtualHost);
        client = StompClient.create(vertx, options);
        StompClientConnection c = client.connect().toCompletionStage().toCompletableFuture()
                .get(config.receiptTimeout().toMillis(), TimeUnit.MILLISECONDS);
        // an ERROR frame or a dropped connection ends this connection: the waiting receipts then time out
        c.errorHandler(frame -> c.close());
        c.connectionDroppedHandler(dropped -> connection = null);
        connection = c;
        return c;
    }

    @Override
    public synchronized void close() {
        if (connection != null) {
            connection.close();
            connection = null;
        }
        if (client != null) {
            client.close();
            client = null;
        }
    }
}
