package io.ferry.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;

/**
 * Open-loop load at a fixed rate over a fixed set of kept-alive HTTP/1.1 connections, the way wrk2 measures: request
 * i is due at start + i/rate, connection i % connections sends it when due (or as soon as it is free, if late), and
 * its latency counts from the due time, so a slow server cannot hide queueing (no coordinated omission).
 * One thread drives every connection from a selector, as wrk2's event loop does: a thread per connection cost this
 * 2-core machine as much CPU in context switches as the server it measured, and its scheduling delays showed up as
 * the server's latency.
 * Usage: PacedLoad urlPrefix keys requestsPerSecond seconds [connections=32]
 */
public final class PacedLoad {

    /** One connection: the request it is on (or will send next) and the bytes of the response so far. */
    static final class Lane {
        final int id;
        final Random rnd;
        SocketChannel channel;
        int request;
        boolean busy;
        final ByteBuffer in = ByteBuffer.allocate(64 * 1024);

        Lane(int id) {
            this.id = id;
            this.rnd = new Random(id);
            this.request = id;
        }
    }

    public static void main(String[] args) throws Exception {
        URI prefix = URI.create(args[0]);
        int keys = Integer.parseInt(args[1]);
        int rate = Math.max(1, Integer.parseInt(args[2]));
        int seconds = Integer.parseInt(args[3]);
        int connections = args.length > 4 ? Integer.parseInt(args[4]) : 32;
        // The first 2 s run at the same rate but are not counted: they would measure this client's own JVM warming up
        // (its JIT) rather than the server.
        int warmup = rate * 2;
        int total = warmup + rate * seconds;
        double[] latencies = new double[total];
        Arrays.fill(latencies, Double.NaN);
        long[] errors = new long[1];
        Selector selector = Selector.open();
        Lane[] lanes = new Lane[connections];
        for (int c = 0; c < connections; c++) {
            lanes[c] = new Lane(c);
            connect(lanes[c], prefix, selector);
        }
        long start = System.nanoTime() + 100_000_000L;
        long deadline = start + (seconds + 62L) * 1_000_000_000L;
        String host = "\r\nHost: " + prefix.getHost() + ":" + prefix.getPort() + "\r\nAccept: application/json\r\n\r\n";
        int finished = 0;
        while (finished < total && System.nanoTime() < deadline) {
            long now = System.nanoTime();
            long nextDue = Long.MAX_VALUE;
            for (Lane lane : lanes) {
                if (lane.busy || lane.request >= total) {
                    continue;
                }
                long due = due(start, lane.request, rate);
                if (due <= now) {
                    String target = prefix.getRawPath() + (1 + lane.rnd.nextInt(keys));
                    ByteBuffer out = ByteBuffer.wrap(("GET " + target + " HTTP/1.1" + host).getBytes(StandardCharsets.US_ASCII));
                    try {
                        while (out.hasRemaining()) {
                            lane.channel.write(out);
                        }
                        lane.busy = true;
                    } catch (IOException e) {
                        finished += failed(lane, errors, connections, prefix, selector);
                    }
                } else {
                    nextDue = Math.min(nextDue, due);
                }
            }
            long wait = Math.min(nextDue - System.nanoTime(), 100_000_000L);
            int ready;
            if (wait >= 1_000_000L) {
                ready = selector.select(wait / 1_000_000L);
            } else {
                ready = selector.selectNow();
                if (ready == 0 && wait > 0) {
                    LockSupport.parkNanos(wait);
                    ready = selector.selectNow();
                }
            }
            if (ready == 0) {
                continue;
            }
            for (SelectionKey key : selector.selectedKeys()) {
                Lane lane = (Lane) key.attachment();
                try {
                    if (lane.channel.read(lane.in) < 0) {
                        throw new IOException("connection closed");
                    }
                    int status = complete(lane.in);
                    if (status == 0) {
                        continue;
                    }
                    if (status >= 200 && status < 400) {
                        latencies[lane.request] = (System.nanoTime() - due(start, lane.request, rate)) / 1e6;
                    } else {
                        errors[0]++;
                    }
                    lane.in.clear();
                    lane.busy = false;
                    lane.request += connections;
                    finished++;
                } catch (IOException e) {
                    finished += failed(lane, errors, connections, prefix, selector);
                }
            }
            selector.selectedKeys().clear();
        }
        double[] answered = Arrays.stream(latencies, warmup, total).filter(d -> !Double.isNaN(d)).toArray();
        System.out.printf("PACED    %d req/s for %d s over %d connections (half of the maximum): %d answered, %d errors, p50 %.2f ms, p99 %.2f ms%n",
                rate, seconds, connections, answered.length, errors[0],
                answered.length == 0 ? Double.NaN : RatesBenchmark.pct(answered, 50),
                answered.length == 0 ? Double.NaN : RatesBenchmark.pct(answered, 99));
        // Whether the tail comes from a few stalls (many late requests in the same 100 ms) or is spread out.
        java.util.TreeMap<Long, Integer> slowWindows = new java.util.TreeMap<>();
        for (int i = warmup; i < total; i++) {
            if (!Double.isNaN(latencies[i]) && latencies[i] > 5) {
                slowWindows.merge((long) (i - warmup) * 10 / rate, 1, Integer::sum);
            }
        }
        System.out.printf("SLOW     %d requests over 5 ms, in %d of %d windows of 100 ms; worst windows (s: count) %s%n",
                slowWindows.values().stream().mapToInt(Integer::intValue).sum(), slowWindows.size(), seconds * 10,
                slowWindows.entrySet().stream().sorted((a, b) -> b.getValue() - a.getValue()).limit(5)
                        .map(e -> String.format("%.1f: %d", e.getKey() / 10.0, e.getValue())).toList());
        System.exit(0);
    }

    static long due(long start, int request, int rate) {
        return start + (long) request * 1_000_000_000L / rate;
    }

    static void connect(Lane lane, URI prefix, Selector selector) throws IOException {
        SocketChannel ch = SocketChannel.open(new InetSocketAddress(prefix.getHost(), prefix.getPort()));
        ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
        ch.configureBlocking(false);
        ch.register(selector, SelectionKey.OP_READ, lane);
        lane.channel = ch;
    }

    /** Counts the lane's request as an error, reconnects it and moves it on; answers 1 (one request finished). */
    static int failed(Lane lane, long[] errors, int connections, URI prefix, Selector selector) {
        errors[0]++;
        try {
            lane.channel.close();
            connect(lane, prefix, selector);
        } catch (IOException e) {
            lane.request = Integer.MAX_VALUE - connections;
        }
        lane.in.clear();
        lane.busy = false;
        lane.request += connections;
        return 1;
    }

    /** The status of the response in {@code in} once it is complete (headers and Content-Length body); else 0. */
    static int complete(ByteBuffer in) throws IOException {
        byte[] b = in.array();
        int end = in.position();
        int headers = -1;
        for (int i = 3; i < end; i++) {
            if (b[i] == '\n' && b[i - 1] == '\r' && b[i - 2] == '\n' && b[i - 3] == '\r') {
                headers = i + 1;
                break;
            }
        }
        if (headers < 0) {
            if (end == b.length) {
                throw new IOException("response headers over " + b.length + " bytes");
            }
            return 0;
        }
        String head = new String(b, 0, headers, StandardCharsets.US_ASCII);
        long length = 0;
        for (String line : head.split("\r\n")) {
            if (line.regionMatches(true, 0, "content-length:", 0, 15)) {
                length = Long.parseLong(line.substring(15).trim());
            }
        }
        if (headers + length > b.length) {
            throw new IOException("response body over " + b.length + " bytes");
        }
        return end >= headers + length ? Integer.parseInt(head.substring(9, 12)) : 0;
    }
}
