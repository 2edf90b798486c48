package io.ferry.bench;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Open-loop load at a fixed rate over a fixed set of kept-alive HTTP/1.1 connections, the way wrk2 measures: request
 * i is due at start + i/rate, connection i % connections sends it when due (or as soon as it is free, if late), and
 * its latency counts from the due time, so a slow server cannot hide queueing (no coordinated omission).
 * Usage: PacedLoad urlPrefix keys requestsPerSecond seconds [connections=32]
 */
public final class PacedLoad {

    public static void main(String[] args) throws Exception {
        URI prefix = URI.create(args[0]);
        int keys = Integer.parseInt(args[1]);
        int rate = Math.max(1, Integer.parseInt(args[2]));
        int seconds = Integer.parseInt(args[3]);
        int connections = args.length > 4 ? Integer.parseInt(args[4]) : 32;
        // The first 2 s run at the same rate but are not counted: they would measure this client's own JVM warming up
        // (its threads connecting, its JIT) rather than the server.
        int warmup = rate * 2;
        int total = warmup + rate * seconds;
        double[] latencies = new double[total];
        Arrays.fill(latencies, Double.NaN);
        AtomicLong errors = new AtomicLong();
        long start = System.nanoTime() + 100_000_000L;
        CountDownLatch done = new CountDownLatch(connections);
        for (int c = 0; c < connections; c++) {
            int lane = c;
            Thread t = new Thread(() -> {
                try {
                    runLane(prefix, keys, rate, total, connections, lane, start, latencies, errors);
                } finally {
                    done.countDown();
                }
            }, "paced-" + c);
            t.setDaemon(true);
            t.start();
        }
        done.await(seconds + 60L, TimeUnit.SECONDS);
        double[] answered = Arrays.stream(latencies, warmup, total).filter(d -> !Double.isNaN(d)).toArray();
        System.out.printf("PACED    %d req/s for %d s over %d connections (half of the maximum): %d answered, %d errors, p50 %.2f ms, p99 %.2f ms%n",
                rate, seconds, connections, answered.length, errors.get(),
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

    private static void runLane(URI prefix, int keys, int rate, int total, int connections, int lane, long start,
                                double[] latencies, AtomicLong errors) {
        Random rnd = new Random(lane);
        Socket socket = null;
        InputStream in = null;
        for (int i = lane; i < total; i += connections) {
            long due = start + (long) i * 1_000_000_000L / rate;
            long wait = due - System.nanoTime();
            try {
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                if (socket == null) {
                    socket = new Socket();
                    socket.setTcpNoDelay(true);
                    socket.connect(new InetSocketAddress(prefix.getHost(), prefix.getPort()), 2000);
                    socket.setSoTimeout(10_000);
                    in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
                }
                String target = prefix.getRawPath() + (1 + rnd.nextInt(keys));
                OutputStream out = socket.getOutputStream();
                out.write(("GET " + target + " HTTP/1.1\r\nHost: " + prefix.getHost() + ":" + prefix.getPort()
                        + "\r\nAccept: application/json\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
                int status = readResponse(in);
                if (status >= 200 && status < 400) {
                    latencies[i] = (System.nanoTime() - due) / 1e6;
                } else {
                    errors.incrementAndGet();
                }
            } catch (IOException e) {
                errors.incrementAndGet();
                closeQuietly(socket);
                socket = null;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        closeQuietly(socket);
    }

    /** Reads one response (status line, headers, Content-Length body) and answers its status. */
    private static int readResponse(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        int status = -1;
        long length = 0;
        while (true) {
            line.setLength(0);
            int b;
            while ((b = in.read()) != '\n') {
                if (b < 0) {
                    throw new IOException("connection closed");
                }
                if (b != '\r') {
                    line.append((char) b);
                }
            }
            if (line.length() == 0) {
                break;
            }
            String l = line.toString();
            if (status < 0) {
                status = Integer.parseInt(l.substring(9, 12));
            } else if (l.regionMatches(true, 0, "content-length:", 0, 15)) {
                length = Long.parseLong(l.substring(15).trim());
            }
        }
        for (long left = length; left > 0; ) {
            long skipped = in.skip(left);
            if (skipped <= 0) {
                if (in.read() < 0) {
                    throw new IOException("connection closed in the body");
                }
                skipped = 1;
            }
            left -= skipped;
        }
        return status;
    }

    private static void closeQuietly(Socket s) {
        if (s != null) {
            try {
                s.close();
            } catch (IOException ignored) {
                // nothing to do
            }
        }
    }
}
