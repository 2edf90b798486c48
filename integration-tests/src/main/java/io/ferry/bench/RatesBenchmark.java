package io.ferry.bench;

import io.ferry.dev.DevTokens;
import io.ferry.dev.FreePort;
import io.ferry.stack.LocalStack;
import io.ferry.stack.ServiceSpec;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * rate-aggregator benchmark: ingest N transfer records over HTTP (records/s), then 12-hour per-link queries
 * through the rollups (p50/p99) against a plain SQL GROUP BY over the raw table, in the same run.
 * Usage: bench/rates-bench.sh [records] [clients] [backfill|live]
 */
public final class RatesBenchmark {

    static final int LINKS = 300;
    static final int BATCH = 5000;

    public static void main(String[] args) throws Exception {
        int records = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int clients = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        // backfill: completions spread over 25 days (a site loading history); live: the last 10 minutes
        // (what transfer-scheduler's outbox delivers), where a batch folds into few rollup rows.
        String mode = args.length > 2 ? args[2] : "backfill";
        int spreadSeconds = mode.equals("live") ? 600 : 25 * 86400;
        Path state = LocalStack.projectRoot().resolve("integration-tests/target/bench-stack");
        deleteTree(state);
        int port = FreePort.find();
        LocalStack stack = new LocalStack(new LocalStack.Options(LocalStack.projectRoot(), state, Map.of(ServiceSpec.AGGREGATOR, port),
                System.getenv("FERRY_DB_URL"), FreePort.find(), Map.of("FERRY_DB_POOL_SIZE", "8")));
        try (stack) {
            stack.start(Duration.ofMinutes(3));
            String base = "http://localhost:" + port;
            String token = stack.tokens().mint(DevTokens.Claims.of("bench", null, "rates:write"));
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

            System.out.printf("generating %,d records over %d links ...%n", records, LINKS);
            // up to 2 M records are generated before the clock starts; beyond that (10 M would not fit in memory) each
            // client generates its batches as it goes, which only makes the ingest figure conservative
            Instant now = Instant.now();
            int batchCount = (records + BATCH - 1) / BATCH;
            List<String> pregenerated = records <= 2_000_000 ? generate(records, spreadSeconds, now) : null;
            java.util.function.IntFunction<String> batches = i -> pregenerated != null ? pregenerated.get(i)
                    : batch(i, Math.min(BATCH, records - i * BATCH), spreadSeconds, now);
            warmUp(http, base, token);

            // A running aggregator has compiled its ingest path; a fresh JVM spends the first seconds of load in the
            // JIT. Uncounted warm-up records (their own ids, the same spread) come first.
            int warmBatches = Math.min(batchCount, WARM_UP_RECORDS / BATCH);
            post(http, base, token, clients, warmBatches, i -> batch(batchCount + i, BATCH, spreadSeconds, now), i -> BATCH);
            // The warm-up's rows go again: the measured records meet the tables a fresh service would, whatever the
            // warm-up's size (a bigger table costs more per insert, which would punish a longer warm-up). The rollup
            // keys (one per link, site pair, VO) stay: the service holds their ids, and a running service knows them.
            try (Connection c = aggregatorDatabase(stack)) {
                c.createStatement().execute("TRUNCATE transfer_record, rollup_pending, rollup_bin");
            }

            long[] db0 = databaseCounters(stack);
            long t0 = System.nanoTime();
            long total = post(http, base, token, clients, batchCount, batches, i -> Math.min(BATCH, records - i * BATCH));
            double seconds = (System.nanoTime() - t0) / 1e9;
            long[] db1 = databaseCounters(stack);
            System.out.printf("MODE     %s (completions spread over %d s)%n", mode, spreadSeconds);
            System.out.printf("INGEST   %,d records in %.1f s = %,.0f records/s (%d clients, %d per request, rollups maintained)%n",
                    total, seconds, total / seconds, clients, BATCH);
            System.out.printf("DATABASE %,.0f bytes of WAL per record, %d checkpoint(s) during the ingest%n",
                    (double) (db1[0] - db0[0]) / total, db1[1] - db0[1]);

            long f0 = System.nanoTime();
            HttpResponse<String> flushed = http.send(HttpRequest.newBuilder(URI.create(base + "/rollups/flush"))
                    .header("Authorization", "Bearer " + token).POST(HttpRequest.BodyPublishers.noBody()).build(),
                    HttpResponse.BodyHandlers.ofString());
            double catchUp = (System.nanoTime() - f0) / 1e9;
            System.out.printf("ROLLUPS  current %.1f s after the last ingest answer (%s); ingest + rollups = %,.0f records/s%n",
                    catchUp, flushed.body(), total / (seconds + catchUp));

            Random rnd = new Random(7);
            double[] api = new double[500];
            for (int i = 0; i < api.length; i++) {
                int link = rnd.nextInt(LINKS);
                long q0 = System.nanoTime();
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/rates?source=SE-" + (link % 30)
                        + "&destination=SE-" + (30 + link / 30) + "&window=12h&bin=1h&top=0")).build(), HttpResponse.BodyHandlers.ofString());
                api[i] = (System.nanoTime() - q0) / 1e6;
                if (r.statusCode() != 200) {
                    throw new IllegalStateException("query answered " + r.statusCode());
                }
            }
            double[] raw = new double[500];
            try (Connection c = aggregatorDatabase(stack);
                 PreparedStatement ps = c.prepareStatement("SELECT date_bin('1 hour', completed_at, TIMESTAMPTZ '2000-01-01 00:00:00+00'), "
                         + "count(*) FILTER (WHERE outcome = 'FINISHED'), count(*) FILTER (WHERE outcome = 'FAILED'), "
                         + "sum(bytes_transferred), avg(throughput_bytes_per_s), max(throughput_bytes_per_s) FROM transfer_record "
                         // the link through its index (the link's hash and day, V9 of the aggregator), as the service's own raw queries do
                         + "WHERE hashtext(source_se || ' ' || dest_se) = hashtext(?::text || ' ' || ?::text) AND source_se = ? AND dest_se = ? "
                         + "AND date_bin('1 day', completed_at, TIMESTAMPTZ '2000-01-01 00:00:00+00') "
                         + ">= date_bin('1 day', now() - interval '12 hours', TIMESTAMPTZ '2000-01-01 00:00:00+00') "
                         + "AND completed_at >= now() - interval '12 hours' GROUP BY 1 ORDER BY 1")) {
                for (int i = 0; i < raw.length; i++) {
                    int link = rnd.nextInt(LINKS);
                    long q0 = System.nanoTime();
                    for (int side = 0; side < 2; side++) {
                        ps.setString(1 + 2 * side, "SE-" + (link % 30));
                        ps.setString(2 + 2 * side, "SE-" + (30 + link / 30));
                    }
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            rs.getLong(2);
                        }
                    }
                    raw[i] = (System.nanoTime() - q0) / 1e6;
                }
            }
            System.out.printf("QUERY    12 h per link via GET /rates (HTTP, rollups): p50 %.2f ms, p99 %.2f ms%n", pct(api, 50), pct(api, 99));
            System.out.printf("BASELINE 12 h per link, plain SQL GROUP BY on raw (JDBC, no HTTP): p50 %.2f ms, p99 %.2f ms%n", pct(raw, 50), pct(raw, 99));
            System.out.printf("RATIO    p99 API / p99 raw SQL = %.2f%n", pct(api, 99) / pct(raw, 99));
        }
    }

    /** A JDBC connection to the aggregator's database on the bench stack's PostgreSQL. */
    static Connection aggregatorDatabase(LocalStack stack) throws java.sql.SQLException {
        return DriverManager.getConnection(stack.postgres().jdbcUrl("ferry_rates"), stack.postgres().user(), stack.postgres().password());
    }

    /** PostgreSQL's WAL position (bytes) and checkpoint count: where the database's share of an ingest goes. */
    static long[] databaseCounters(LocalStack stack) throws java.sql.SQLException {
        try (Connection c = aggregatorDatabase(stack);
             java.sql.ResultSet r = c.createStatement().executeQuery("SELECT pg_current_wal_lsn() - '0/0'::pg_lsn, "
                     + "checkpoints_timed + checkpoints_req FROM pg_stat_bgwriter")) {
            r.next();
            return new long[]{r.getLong(1), r.getLong(2)};
        }
    }

    /** Records sent before the measured ones, not counted (FERRY_BENCH_WARM_UP_RECORDS). */
    static final int WARM_UP_RECORDS = Integer.parseInt(System.getenv().getOrDefault("FERRY_BENCH_WARM_UP_RECORDS", "400000"));

    /** Sends batches 0..count-1 from {@code clients} threads; answers how many records were accepted. */
    static long post(HttpClient http, String base, String token, int clients, int count, java.util.function.IntFunction<String> batchAt,
                     java.util.function.IntUnaryOperator recordsIn) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        AtomicInteger next = new AtomicInteger();
        List<Future<Long>> results = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            results.add(pool.submit(() -> {
                long accepted = 0;
                for (int i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
                    String body = batchAt.apply(i);
                    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/records"))
                            .header("Authorization", "Bearer " + token).header("Content-Type", "application/x-ndjson")
                            .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
                    if (r.statusCode() != 200) {
                        throw new IllegalStateException("ingest answered " + r.statusCode() + ": " + r.body());
                    }
                    accepted += recordsIn.applyAsInt(i);
                }
                return accepted;
            }));
        }
        long total = 0;
        for (Future<Long> f : results) {
            total += f.get();
        }
        pool.shutdown();
        return total;
    }

    static void warmUp(HttpClient http, String base, String token) throws Exception {
        for (int i = 0; i < 20; i++) {
            http.send(HttpRequest.newBuilder(URI.create(base + "/links?window=1h")).build(), HttpResponse.BodyHandlers.discarding());
        }
    }

    static List<String> generate(int n, int spreadSeconds, Instant now) {
        List<String> batches = new ArrayList<>();
        for (int i = 0; i * BATCH < n; i++) {
            batches.add(batch(i, Math.min(BATCH, n - i * BATCH), spreadSeconds, now));
        }
        return batches;
    }

    /** Batch number {@code index}: the same records every time (seeded by the index). */
    static String batch(int index, int count, int spreadSeconds, Instant now) {
        Random rnd = new Random(42L + index);
        StringBuilder b = new StringBuilder(count * 560);
        for (int k = 0; k < count; k++) {
            int i = index * BATCH + k;
            int link = rnd.nextInt(LINKS);
            Instant end = now.minusSeconds(60 + rnd.nextInt(spreadSeconds));
            int secs = 5 + rnd.nextInt(300);
            long size = 1_000_000L + rnd.nextInt(3_000_000) * 1000L;
            boolean ok = rnd.nextInt(20) != 0;
            Instant start = end.minusSeconds(secs);
            Instant prep = start.minusSeconds(rnd.nextInt(40));
            b.append("{\"id\":\"b-").append(i).append("\",\"vo\":\"atlas\",\"source_se\":\"SE-").append(link % 30)
                    .append("\",\"dest_se\":\"SE-").append(30 + link / 30).append("\",\"source_site\":\"SITE-").append(link % 30)
                    .append("\",\"dest_site\":\"SITE-").append(30 + link / 30).append("\",\"filesize\":").append(size)
                    .append(",\"bytes_transferred\":").append(ok ? size : 0).append(",\"submitted_at\":\"").append(prep)
                    .append("\",\"prepare_started_at\":\"").append(prep).append("\",\"prepare_ended_at\":\"").append(start)
                    .append("\",\"transfer_started_at\":\"").append(start).append("\",\"transfer_ended_at\":\"").append(end)
                    .append("\",\"throughput_bytes_per_s\":").append(ok ? size / secs : 0)
                    .append(",\"outcome\":\"").append(ok ? "FINISHED" : "FAILED").append("\"}\n");
        }
        return b.toString();
    }

    static double pct(double[] values, int p) {
        double[] s = values.clone();
        Arrays.sort(s);
        return s[Math.min(s.length - 1, (int) Math.ceil(p / 100.0 * s.length) - 1)];
    }

    static void deleteTree(Path p) throws java.io.IOException {
        if (java.nio.file.Files.exists(p)) {
            try (var walk = java.nio.file.Files.walk(p)) {
                walk.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }
}
