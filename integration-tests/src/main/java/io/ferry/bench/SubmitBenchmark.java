package io.ferry.bench;

import io.ferry.dev.DevTokens;
import io.ferry.dev.FreePort;
import io.ferry.stack.LocalStack;
import io.ferry.stack.ServiceSpec;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * transfer-scheduler submission benchmark: Rucio-shaped jobs (its conveyor's params and per-file metadata, as
 * {@code Fts3TokenIT} sends them) of 1,000 and 10,000 files posted to the packaged scheduler, timed from the request
 * to the 200 with the job id (the job and its files are committed by then). After uncounted warm-up submissions,
 * interleaved rounds of both sizes; median and best of each, and the 10,000-file median against ten times the
 * 1,000-file median of the same run (1.0: a big job costs no more per file than a small one).
 * The scheduler runs API-only (no engine): what is measured is the submission path alone, not the prepare loop
 * starting on the files; the tables are emptied after each submission, so every run meets the same database.
 * Usage: bench/submit-bench.sh [rounds=9] [warm-up rounds=6]
 */
public final class SubmitBenchmark {

    static final int SMALL = 1_000;
    static final int BIG = 10_000;

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 9;
        int warmUp = args.length > 1 ? Integer.parseInt(args[1]) : 6;
        Path state = LocalStack.projectRoot().resolve("integration-tests/target/bench-submit");
        RatesBenchmark.deleteTree(state);
        int port = FreePort.find();
        try (LocalStack stack = new LocalStack(new LocalStack.Options(LocalStack.projectRoot(), state, Map.of(ServiceSpec.SCHEDULER, port),
                null, FreePort.find(), Map.of("FERRY_SCHEDULER_ENGINE_ENABLED", "false",
                "FERRY_CLIENTS_AGGREGATOR_URL", TransferBenchmark.NO_AGGREGATOR)))) {
            stack.start(Duration.ofMinutes(3));
            String base = "http://localhost:" + port;
            String admin = stack.tokens().mint(DevTokens.Claims.of("bench", null, "transfer:admin"));
            String user = stack.tokens().mint(DevTokens.Claims.of("bench", "atlas", "transfer:submit"));
            // the SEs are never contacted: no engine runs
            registerSe(base, admin, "RSE-A", "https://rse-a.example:8443/atlas");
            registerSe(base, admin, "RSE-B", "https://rse-b.example:8443/atlas");
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            byte[] small = body(SMALL);
            byte[] big = body(BIG);
            System.out.printf(Locale.ROOT, "bodies: %,d files = %,d bytes, %,d files = %,d bytes%n", SMALL, small.length, BIG, big.length);

            try (Connection db = DriverManager.getConnection(stack.postgres().jdbcUrl(ServiceSpec.SCHEDULER.database()),
                    stack.postgres().user(), stack.postgres().password())) {
                for (int i = 0; i < warmUp; i++) {
                    submit(http, base, user, small, db);
                    submit(http, base, user, big, db);
                }
                double[] smallSeconds = new double[rounds];
                double[] bigSeconds = new double[rounds];
                for (int i = 0; i < rounds; i++) {
                    smallSeconds[i] = submit(http, base, user, small, db);
                    bigSeconds[i] = submit(http, base, user, big, db);
                }
                report(SMALL, small.length, smallSeconds);
                report(BIG, big.length, bigSeconds);
                System.out.printf(Locale.ROOT, "RATIO    10,000 files / (10 x 1,000 files), medians: %.2f%n",
                        TransferBenchmark.median(bigSeconds) / (10 * TransferBenchmark.median(smallSeconds)));
            }
        }
    }

    static void report(int files, int bytes, double[] seconds) {
        double best = java.util.Arrays.stream(seconds).min().orElseThrow();
        System.out.printf(Locale.ROOT, "SUBMIT   %,6d files (%,d bytes): median %.3f s, best %.3f s over %d runs (%s)%n", files, bytes,
                TransferBenchmark.median(seconds), best, seconds.length, TransferBenchmark.runs(seconds));
    }

    /** Posts the job and answers the seconds until its 200; then empties the job tables for the next run. */
    static double submit(HttpClient http, String base, String token, byte[] body, Connection db) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/jobs")).header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json").timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        long t0 = System.nanoTime();
        HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
        double seconds = (System.nanoTime() - t0) / 1e9;
        if (r.statusCode() != 200 || !r.body().contains("job_id")) {
            throw new IllegalStateException("submit answered " + r.statusCode() + ": " + r.body());
        }
        db.createStatement().execute("TRUNCATE job, transfer_file CASCADE");
        return seconds;
    }

    /**
     * A job as Rucio's conveyor builds it (transfertool/fts3.py: build_job_params and _file_from_transfer): its
     * params, unknown-to-Ferry ones included, and every file with its request metadata, size and ADLER32.
     */
    static byte[] body(int files) {
        StringBuilder b = new StringBuilder(files * 600).append("{\"files\":[");
        for (int i = 0; i < files; i++) {
            String request = UUID.randomUUID().toString().replace("-", "");
            String adler = String.format(Locale.ROOT, "%08x", i * 2654435761L & 0xffffffffL);
            b.append(i == 0 ? "" : ", ").append("{\"sources\": [\"https://rse-a.example:8443/atlas/rucio/mc23/").append(request, 0, 2)
                    .append('/').append(request, 2, 4).append("/file.").append(i).append("\"], \"destinations\": [\"https://rse-b.example:8443/atlas/rucio/mc23/")
                    .append(request, 0, 2).append('/').append(request, 2, 4).append("/file.").append(i).append("\"], \"metadata\": {\"request_id\": \"")
                    .append(request).append("\", \"scope\": \"mc23\", \"name\": \"file.").append(i)
                    .append("\", \"activity\": \"User Subscriptions\", \"request_type\": \"TRANSFER\", \"src_type\": \"DISK\", \"dst_type\": \"DISK\", ")
                    .append("\"src_rse\": \"RSE-A\", \"dst_rse\": \"RSE-B\", \"filesize\": 1000, \"md5\": null, \"adler32\": \"").append(adler)
                    .append("\"}, \"filesize\": 1000, \"checksum\": \"ADLER32:").append(adler)
                    .append("\", \"selection_strategy\": \"auto\", \"activity\": \"User Subscriptions\", \"scitag\": 145}");
        }
        b.append("], \"params\": {\"account\": \"root\", \"verify_checksum\": \"both\", \"copy_pin_lifetime\": -1, \"bring_online\": null, ")
                .append("\"job_metadata\": {\"issuer\": \"rucio\", \"multi_sources\": false, \"overwrite_when_only_on_disk\": false}, ")
                .append("\"overwrite\": true, \"overwrite_when_only_on_disk\": false, \"priority\": 3, \"s3alternate\": true, ")
                .append("\"ipv4\": true, \"ipv6\": false, \"strict_copy\": false, \"max_time_in_queue\": 168}}");
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Registers an SE the bench's VO may read and write in Ferry's catalogue. */
    static void registerSe(String base, String admin, String name, String url) throws Exception {
        String body = "{\"site\":\"" + name + "-SITE\",\"baseUrls\":{\"https\":\"" + url + "\"},\"access\":" + TransferBenchmark.BENCH_RIGHTS + "}";
        HttpResponse<String> r = TransferBenchmark.send("PUT", base + "/endpoints/" + name, admin, body);
        if (r.statusCode() >= 300) {
            throw new IllegalStateException(name + ": " + r.statusCode() + " " + r.body());
        }
    }
}
