package io.ferry.scheduler.monitoring;

import io.vertx.core.Vertx;
import io.vertx.ext.stomp.StompClient;
import io.vertx.ext.stomp.StompClientConnection;
import io.vertx.ext.stomp.StompServer;
import io.vertx.ext.stomp.StompServerHandler;
import io.vertx.ext.stomp.StompServerOptions;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A STOMP 1.2 broker for the tests (Vert.x's STOMP server: CONNECT, SEND with RECEIPT, SUBSCRIBE to topics) on
 * 127.0.0.1, with one subscriber that keeps every body it is delivered, as a consumer such as Rucio's receiver would.
 */
public final class StompBroker implements AutoCloseable {

    private final Vertx vertx = Vertx.vertx();
    private final StompServer server;
    private final StompClient client;
    private final StompClientConnection subscriber;
    /** The bodies the subscriber got, as delivered. */
    public final List<String> bodies = new CopyOnWriteArrayList<>();
    /** Their {@code vo} headers, in the same order. */
    public final List<String> voHeaders = new CopyOnWriteArrayList<>();

    public StompBroker(int port, String destination) throws Exception {
        server = StompServer.create(vertx, new StompServerOptions().setHost("127.0.0.1").setPort(port))
                .handler(StompServerHandler.create(vertx)).listen().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        client = StompClient.create(vertx, new io.vertx.ext.stomp.StompClientOptions().setHost("127.0.0.1").setPort(port));
        subscriber = client.connect().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        subscriber.subscribe(destination, frame -> {
            bodies.add(frame.getBodyAsString(StandardCharsets.UTF_8.name()));
            voHeaders.add(frame.getHeader("vo"));
        }).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws Exception {
        subscriber.close();
        client.close();
        server.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

}
