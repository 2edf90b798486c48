package io.ferry.resolver.nativeprotocol;

import io.ferry.resolver.nativeprotocol.wire.WireWriter;
import io.ferry.resolver.nativeprotocol.wire.ProtocolException;
import io.ferry.resolver.nativeprotocol.wire.MessageHeader;
import io.ferry.resolver.nativeprotocol.wire.Envelope;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.socket.nio.NioChannelOption;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.vertx.core.Vertx;
import io.vertx.core.impl.ContextInternal;
import io.vertx.core.impl.VertxInternal;

import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.util.ArrayList;
import java.util.List;

/**
 * The native protocol's UDP side: {@code count} datagram sockets on one port, each on its own Vert.x event loop; with
 * more than one, SO_REUSEPORT lets the kernel spread the senders across them. Netty's channels are used directly, not
 * Vert.x's DatagramSocket, which resolves the reply's host string for every datagram and makes every read buffer as
 * large as the socket's receive buffer. A request is one datagram; an answer longer than a datagram's 492 bytes of
 * message goes out in numbered packets, as CNRI's client reassembles them. Answers given while reading a batch of
 * datagrams are flushed once, when the batch is read.
 */
final class UdpSockets {

    /** Handle.net's UDP packets: 512 bytes, the envelope included. */
    static final int UDP_DATA_SIZE = 512 - Envelope.SIZE;

    /** Room for any request datagram (a request longer than this is not one CNRI's client sends over UDP). */
    private static final int READ_BUFFER = 2048;
    private static final int RECEIVE_BUFFER = 1 << 20;
    private static final String EPOLL_REUSE_PORT = "io.netty.channel.epoll.EpollChannelOption#SO_REUSEPORT";

    private final List<Channel> channels = new ArrayList<>();

    private UdpSockets() {
    }

    /** Binds {@code count} sockets to {@code host}:{@code port} (0: a free port, the same for all). */
    static UdpSockets bind(Vertx vertx, String host, int port, int count, NativeRequestHandler handler,
                           io.ferry.resolver.nativeprotocol.NativeRequestMetrics metrics) {
        UdpSockets sockets = new UdpSockets();
        VertxInternal vx = (VertxInternal) vertx;
        int bound = port;
        for (int i = 0; i < count; i++) {
            // Each socket has its own event-loop context (round robin over Vert.x's loops); requests run on it, as
            // Vert.x's own sockets run theirs, so that a resolution that reads the database continues there.
            ContextInternal context = vx.createEventLoopContext();
            Channel channel = vx.transport().datagramChannel();
            channel.config().setOption(ChannelOption.SO_RCVBUF, RECEIVE_BUFFER);
            channel.config().setRecvByteBufAllocator(new FixedRecvByteBufAllocator(READ_BUFFER));
            if (count > 1) {
                reusePort(channel);
            }
            channel.pipeline().addLast(new Answering(context, handler, metrics));
            context.nettyEventLoop().register(channel).syncUninterruptibly();
            channel.bind(new InetSocketAddress(host, bound)).syncUninterruptibly();
            bound = ((InetSocketAddress) channel.localAddress()).getPort();
            sockets.channels.add(channel);
        }
        return sockets;
    }

    private static void reusePort(Channel channel) {
        boolean set = channel instanceof NioDatagramChannel
                ? channel.config().setOption(NioChannelOption.of(StandardSocketOptions.SO_REUSEPORT), true)
                : ChannelOption.exists(EPOLL_REUSE_PORT) && channel.config().setOption(ChannelOption.valueOf(EPOLL_REUSE_PORT), true);
        if (!set) {
            throw new IllegalStateException("SO_REUSEPORT is not available: set ferry.resolver.native.udp-sockets=1");
        }
    }

    int port() {
        return channels.isEmpty() ? -1 : ((InetSocketAddress) channels.get(0).localAddress()).getPort();
    }

    void close() {
        channels.forEach(Channel::close);
    }

    /** One socket's requests: decoded, answered, and the answer sent back to the datagram's sender address. */
    private static final class Answering extends SimpleChannelInboundHandler<DatagramPacket> {

        private final ContextInternal context;
        private final NativeRequestHandler handler;
        private final io.ferry.resolver.nativeprotocol.NativeRequestMetrics metrics;
        /** Inside channelRead0, on the event loop: an answer given now is flushed with its batch. */
        private boolean reading;

        Answering(ContextInternal context, NativeRequestHandler handler, io.ferry.resolver.nativeprotocol.NativeRequestMetrics metrics) {
            this.context = context;
            this.handler = handler;
            this.metrics = metrics;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
            NativeRequest req = request(packet.content(), handler);
            if (req == null) {
                return;
            }
            InetSocketAddress sender = packet.sender();
            reading = true;
            try {
                context.emit(req, r -> handler.handle(r).subscribe().with(reply -> {
                    metrics.answered(io.ferry.resolver.nativeprotocol.NativeRequestMetrics.UDP, r.opCode(), reply.message());
                    send(ctx, req.envelope(), reply, sender);
                    // An answer that came later (from the database) is not part of a batch being read.
                    if (!reading || !ctx.executor().inEventLoop()) {
                        ctx.flush();
                    }
                }));
            } finally {
                reading = false;
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // A datagram that could not be read or sent is lost, as datagrams are; the socket stays open.
        }
    }

    /** The request in one datagram, or null when it is none this server answers (then nothing is sent back). */
    static NativeRequest request(ByteBuf content, NativeRequestHandler handler) {
        if (content.readableBytes() < Envelope.SIZE + MessageHeader.SIZE) {
            return null;
        }
        byte[] data = ByteBufUtil.getBytes(content);
        try {
            Envelope e = Envelope.decode(data, 0);
            // A request longer than one datagram (only ever a huge handle name) is not reassembled here.
            if (e.messageId() != 0 || e.compressed() || e.messageLength() > data.length - Envelope.SIZE) {
                return null;
            }
            return handler.open(e, data, Envelope.SIZE);
        } catch (ProtocolException ex) {
            return null;
        }
    }

    /** Writes the answer to {@code request} as one datagram per {@link #UDP_DATA_SIZE} bytes of message. */
    static void send(ChannelHandlerContext ctx, Envelope request, NativeRequestHandler.Reply reply, InetSocketAddress to) {
        byte[] message = reply.message();
        int packets = Math.max(1, (message.length + UDP_DATA_SIZE - 1) / UDP_DATA_SIZE);
        Envelope env = request.reply(reply.sessionId(), message.length, reply.encrypted());
        for (int i = 0; i < packets; i++) {
            int from = i * UDP_DATA_SIZE;
            int length = Math.min(UDP_DATA_SIZE, message.length - from);
            WireWriter out = new WireWriter(Envelope.SIZE);
            new Envelope(env.major(), env.minor(), env.suggestMajor(), env.suggestMinor(), false, env.encrypted(), false,
                    env.sessionId(), env.requestId(), i, env.messageLength()).encode(out);
            ByteBuf datagram = ctx.alloc().directBuffer(Envelope.SIZE + length);
            datagram.writeBytes(out.toByteArray()).writeBytes(message, from, length);
            ctx.write(new DatagramPacket(datagram, to));
        }
    }
}
