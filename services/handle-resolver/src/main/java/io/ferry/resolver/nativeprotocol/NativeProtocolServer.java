package io.ferry.resolver.nativeprotocol;

import io.ferry.resolver.nativeprotocol.wire.WireWriter;
import io.ferry.resolver.nativeprotocol.wire.ProtocolException;
import io.ferry.resolver.nativeprotocol.wire.MessageHeader;
import io.ferry.resolver.nativeprotocol.wire.Envelope;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.NetSocket;
import io.vertx.core.parsetools.RecordParser;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

/**
 * The native Handle protocol's sockets, on Vert.x's event loops: TCP (envelope, then the message it announces;
 * several requests may follow on one connection) and UDP ({@link UdpSockets}).
 */
@ApplicationScoped
public class NativeProtocolServer {

    private static final Logger LOG = Logger.getLogger(NativeProtocolServer.class);

    private static final int IDLE_TIMEOUT_SECONDS = 60;

    final Vertx vertx;

    final NativeProtocolConfig config;

    final NativeRequestHandler handler;

    final io.ferry.resolver.nativeprotocol.NativeRequestMetrics metrics;

    @Inject
    public NativeProtocolServer(
            Vertx vertx,
            NativeProtocolConfig config,
            NativeRequestHandler handler,
            io.ferry.resolver.nativeprotocol.NativeRequestMetrics metrics) {
        this.vertx = vertx;
        this.config = config;
        this.handler = handler;
        this.metrics = metrics;
    }

    private NetServer tcp;
    private UdpSockets udp;

    void start(@Observes StartupEvent event) {
        if (!config.enabled()) {
            return;
        }
        tcp = vertx.createNetServer(new NetServerOptions().setHost(config.bind()).setPort(config.port())
                        .setIdleTimeout(IDLE_TIMEOUT_SECONDS).setTcpNoDelay(true))
                .connectHandler(this::serve);
        tcp.listen().toCompletionStage().toCompletableFuture().join();
        int sockets = config.udpSockets() > 0 ? config.udpSockets() : Runtime.getRuntime().availableProcessors();
        udp = UdpSockets.bind(vertx, config.bind(), config.port(), sockets, handler, metrics);
        handler.advertise(tcpPort(), udpPort());
        LOG.infof("native Handle protocol on %s: TCP %d, UDP %d", config.bind(), tcpPort(), udpPort());
    }

    void stop(@Observes ShutdownEvent event) {
        if (tcp != null) {
            tcp.close();
        }
        if (udp != null) {
            udp.close();
        }
    }

    public int tcpPort() {
        return tcp == null ? -1 : tcp.actualPort();
    }

    public int udpPort() {
        return udp == null ? -1 : udp.port();
    }

    private void serve(NetSocket socket) {
        RecordParser parser = RecordParser.newFixed(Envelope.SIZE);
        Envelope[] current = new Envelope[1];
        parser.handler(chunk -> {
            if (current[0] == null) {
                Envelope e;
                try {
                    e = Envelope.decode(chunk.getBytes(), 0);
                } catch (ProtocolException ex) {
                    socket.close();
                    return;
                }
                if (e.messageLength() < MessageHeader.SIZE || e.compressed()) {
                    socket.close();
                    return;
                }
                current[0] = e;
                parser.fixedSizeMode(e.messageLength());
                return;
            }
            Envelope e = current[0];
            current[0] = null;
            parser.fixedSizeMode(Envelope.SIZE);
            NativeRequest req;
            try {
                req = handler.open(e, chunk.getBytes(), 0);
            } catch (ProtocolException ex) {
                socket.close();
                return;
            }
            // One request at a time per connection, so that answers leave in the order of their requests.
            parser.pause();
            handler.handle(req).subscribe().with(reply -> {
                metrics.answered(io.ferry.resolver.nativeprotocol.NativeRequestMetrics.TCP, req.opCode(), reply.message());
                socket.write(frame(e, reply));
                parser.resume();
            });
        });
        parser.exceptionHandler(ex -> socket.close());
        socket.handler(parser);
    }

    private static Buffer frame(Envelope request, NativeRequestHandler.Reply reply) {
        byte[] message = reply.message();
        WireWriter out = new WireWriter(Envelope.SIZE + message.length);
        request.reply(reply.sessionId(), message.length, reply.encrypted()).encode(out);
        return Buffer.buffer(out.raw(message).toByteArray());
    }
}
