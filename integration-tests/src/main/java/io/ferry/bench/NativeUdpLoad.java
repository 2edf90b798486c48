package io.ferry.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.charset.StandardCharsets;
import java.util.Random;

/**
 * Closed-loop load of native Handle protocol resolutions over UDP: {@code window} requests in flight, spread over
 * {@code sockets} client sockets (many clients, as a server sees them; the kernel spreads senders over the server's
 * SO_REUSEPORT sockets by address), a random handle {@code prefix + (1..keys)} each, a new one sent as each answer
 * arrives; a request unanswered after 200 ms counts as lost and its slot is reused. Prints the rate of successful
 * answers (response code 1) and how many were lost or failed.
 * Usage: NativeUdpLoad host port handlePrefix keys seconds [window=64] [sockets=4]
 */
public final class NativeUdpLoad {

    private static final int ENVELOPE = 20;
    private static final int HEADER = 24;
    private static final long LOST_NANOS = 200_000_000L;
    private static final int SPINS = 2000;

    private NativeUdpLoad() {
    }

    /** A resolution request for all values of {@code handle}, public only, as CNRI's client writes it (2.11). */
    static byte[] request(int requestId, String handle) {
        byte[] h = handle.getBytes(StandardCharsets.UTF_8);
        int body = 4 + h.length + 4 + 4;
        ByteBuffer b = ByteBuffer.allocate(ENVELOPE + HEADER + body + 4);
        b.put((byte) 2).put((byte) 11).put((byte) 2).put((byte) 11).putInt(0).putInt(requestId).putInt(0).putInt(HEADER + body + 4);
        b.putInt(1).putInt(0).putInt(0x01000000).putShort((short) 0).put((byte) 0).put((byte) 0)
                .putInt((int) (System.currentTimeMillis() / 1000) + 3600).putInt(body);
        b.putInt(h.length).put(h).putInt(0).putInt(0);
        b.putInt(0);
        return b.array();
    }

    public static void main(String[] args) throws IOException {
        InetSocketAddress server = new InetSocketAddress(args[0], Integer.parseInt(args[1]));
        String prefix = args[2];
        int keys = Integer.parseInt(args[3]);
        long seconds = Long.parseLong(args[4]);
        int window = args.length > 5 ? Integer.parseInt(args[5]) : 64;
        int sockets = Math.min(window, args.length > 6 ? Integer.parseInt(args[6]) : 4);
        Random rnd = new Random(7);
        long[] sentAt = new long[window];
        int[] ids = new int[window];
        long ok = 0;
        long failed = 0;
        long lost = 0;
        DatagramChannel[] channels = new DatagramChannel[sockets];
        try (Selector selector = Selector.open()) {
            for (int c = 0; c < sockets; c++) {
                channels[c] = DatagramChannel.open();
                channels[c].connect(server);
                channels[c].configureBlocking(false);
                channels[c].register(selector, SelectionKey.OP_READ);
            }
            ByteBuffer in = ByteBuffer.allocate(64 * 1024);
            long start = System.nanoTime();
            long end = start + seconds * 1_000_000_000L;
            for (int i = 0; i < window; i++) {
                ids[i] = i;
                resend(channels, ids, sentAt, i, System.nanoTime(), prefix, keys, rnd);
            }
            int idle = 0;
            while (System.nanoTime() < end) {
                // Polls while answers keep coming, then waits in the kernel: spinning all along would take a core
                // from the server, waking for every packet would make the client the bottleneck.
                if (idle > SPINS) {
                    selector.select(5);
                    selector.selectedKeys().clear();
                    idle = 0;
                }
                long now = System.nanoTime();
                for (int c = 0; c < sockets; c++) {
                    DatagramChannel ch = channels[c];
                    while (true) {
                        in.clear();
                        int n = ch.read(in);
                        if (n <= 0) {
                            idle++;
                            break;
                        }
                        idle = 0;
                        if (n < ENVELOPE + HEADER) {
                            continue;
                        }
                        int requestId = in.getInt(8);
                        int slot = requestId % window;
                        if (ids[slot] == requestId && in.getInt(12) == 0) {
                            if (in.getInt(ENVELOPE + 4) == 1) {
                                ok++;
                            } else {
                                failed++;
                            }
                            resend(channels, ids, sentAt, slot, now, prefix, keys, rnd);
                        }
                    }
                }
                for (int i = 0; i < window; i++) {
                    if (now - sentAt[i] > LOST_NANOS) {
                        lost++;
                        resend(channels, ids, sentAt, i, now, prefix, keys, rnd);
                    }
                }
            }
            double secs = (System.nanoTime() - start) / 1e9;
            System.out.printf("NATIVE   UDP resolution:       %10.2f req/s  (%d answered, %d errors, %d lost, window %d over %d sockets)%n",
                    ok / secs, ok, failed, lost, window, sockets);
        } finally {
            for (DatagramChannel ch : channels) {
                if (ch != null) {
                    ch.close();
                }
            }
        }
    }

    /**
     * Sends a new request from {@code slot}, on the slot's socket: its id stays congruent to the slot, so answers
     * find their slot.
     */
    private static void resend(DatagramChannel[] channels, int[] ids, long[] sentAt, int slot, long now, String prefix, int keys, Random rnd)
            throws IOException {
        ids[slot] += ids.length;
        sentAt[slot] = now;
        channels[slot % channels.length].write(ByteBuffer.wrap(request(ids[slot], prefix + (1 + rnd.nextInt(keys)))));
    }
}
