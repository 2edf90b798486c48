package io.ferry.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Open-loop load at a fixed rate: each request is due at its slot and its latency counts from the slot, so a slow
 * server cannot hide queueing (no coordinated omission). Usage: PacedLoad urlPrefix keys requestsPerSecond seconds
 */
public final class PacedLoad {

    public static void main(String[] args) throws Exception {
        String prefix = args[0];
        int keys = Integer.parseInt(args[1]);
        int rate = Math.max(1, Integer.parseInt(args[2]));
        int seconds = Integer.parseInt(args[3]);
        HttpClient http = HttpClient.newBuilder().executor(Executors.newFixedThreadPool(4)).connectTimeout(Duration.ofSeconds(2)).build();
        Random rnd = new Random(1);
        ConcurrentLinkedQueue<Double> latencies = new ConcurrentLinkedQueue<>();
        List<CompletableFuture<?>> inFlight = new ArrayList<>();
        long start = System.nanoTime();
        long total = (long) rate * seconds;
        long errors = 0;
        for (long i = 0; i < total; i++) {
            long due = start + i * 1_000_000_000L / rate;
            long wait = due - System.nanoTime();
            if (wait > 0) {
                TimeUnit.NANOSECONDS.sleep(wait);
            }
            HttpRequest req = HttpRequest.newBuilder(URI.create(prefix + (1 + rnd.nextInt(keys)))).timeout(Duration.ofSeconds(10)).build();
            inFlight.add(http.sendAsync(req, HttpResponse.BodyHandlers.discarding())
                    .thenAccept(r -> latencies.add((System.nanoTime() - due) / 1e6)));
            if (inFlight.size() > 5000) {
                inFlight.removeIf(CompletableFuture::isDone);
            }
        }
        for (CompletableFuture<?> f : inFlight) {
            try {
                f.get(15, TimeUnit.SECONDS);
            } catch (Exception e) {
                errors++;
            }
        }
        double[] l = latencies.stream().mapToDouble(Double::doubleValue).toArray();
        System.out.printf("PACED    %d req/s for %d s (half of the maximum): %d answered, %d errors, p50 %.2f ms, p99 %.2f ms%n",
                rate, seconds, l.length, errors, RatesBenchmark.pct(l, 50), RatesBenchmark.pct(l, 99));
        System.exit(0);
    }
}
