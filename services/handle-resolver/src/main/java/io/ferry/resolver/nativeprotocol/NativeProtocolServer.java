package io.ferry.resolver.nativeprotocol;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.datagram.DatagramPacket;
import io.vertx.core.datagram.DatagramSocket;
import io.vertx.core.datagram.DatagramSocketOptions;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.NetSocket;
import io.vertx.core.parsetools.RecordParser;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.util.Arrays;

/**
 * The native Handle protocol's sockets, on Vert.x's event loops: TCP (envelope, then the message it announces;
 * several requests may follow on one connection) and UDP (a request in one datagram; an answer longer than a
 * datagram's 492 bytes of message goes out in numbered packets, as CNRI's client reassembles them).
 */
@ApplicationScoped
public class NativeProtocolServer {

    private static final Logger LOG = Logger.getLogger(NativeProtocolServer.class);

    /** Handle.net's UDP packets: 512 bytes, the envelope included. */
    static final int UDP_DATA_SIZE = 512 - Envelope.SIZE;

    private static final int IDLE_TIMEOUT_SECONDS = 60;

    @Inject
    Vertx vertx;

    @Inject
    NativeProtocolConfig config;

    @Inject
    NativeRequestHandler handler;

    private NetServer tcp;
    private DatagramSocket udp;

    void start(@Observes StartupEvent event) {
        if (!config.enabled()) {
            return;
        }
        tcp = vertx.createNetServer(new NetServerOptions().setHost(config.bind()).setPort(config.port())
                        .setIdleTimeout(IDLE_TIMEOUT_SECONDS).setTcpNoDelay(true))
                .connectHandler(this::serve);
        tcp.listen().toCompletionStage().toCompletableFuture().join();
        udp = vertx.createDatagramSocket(new DatagramSocketOptions().setReceiveBufferSize(1 << 20));
        udp.handler(this::serve);
        udp.listen(config.port(), config.bind()).toCompletionStage().toCompletableFuture().join();
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
        return udp == null ? -1 : udp.localAddress().port();
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
                if (e.messageLength() < MessageHeader.SIZE || e.encrypted() || e.compressed()) {
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
                req = NativeRequest.decode(e, chunk.getBytes(), 0);
            } catch (ProtocolException ex) {
                socket.close();
                return;
            }
            // One request at a time per connection, so that answers leave in the order of their requests.
            parser.pause();
            handler.handle(req).subscribe().with(reply -> {
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
        request.reply(reply.sessionId(), message.length).encode(out);
        return Buffer.buffer(out.raw(message).toByteArray());
    }

    private void serve(DatagramPacket packet) {
        byte[] data = packet.data().getBytes();
        if (data.length < Envelope.SIZE + MessageHeader.SIZE) {
            return;
        }
        Envelope e;
        NativeRequest req;
        try {
            e = Envelope.decode(data, 0);
            // A request longer than one datagram (only ever a huge handle name) is not reassembled here.
            if (e.messageId() != 0 || e.encrypted() || e.compressed() || e.messageLength() > data.length - Envelope.SIZE) {
                return;
            }
            req = NativeRequest.decode(e, data, Envelope.SIZE);
        } catch (ProtocolException ex) {
            return;
        }
        handler.handle(req).subscribe().with(reply -> {
            byte[] message = reply.message();
            int packets = Math.max(1, (message.length + UDP_DATA_SIZE - 1) / UDP_DATA_SIZE);
            for (int i = 0; i < packets; i++) {
                int from = i * UDP_DATA_SIZE;
                int length = Math.min(UDP_DATA_SIZE, message.length - from);
                Envelope env = e.reply(reply.sessionId(), message.length);
                WireWriter out = new WireWriter(Envelope.SIZE + length);
                new Envelope(env.major(), env.minor(), env.suggestMajor(), env.suggestMinor(), false, false, false,
                        env.sessionId(), env.requestId(), i, env.messageLength()).encode(out);
                out.raw(Arrays.copyOfRange(message, from, from + length));
                udp.send(Buffer.buffer(out.toByteArray()), packet.sender().port(), packet.sender().host());
            }
        });
    }
}
