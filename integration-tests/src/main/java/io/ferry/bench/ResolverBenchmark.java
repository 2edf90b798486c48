package io.ferry.bench;

import io.ferry.dev.DevTokens;
import io.ferry.dev.FreePort;
import io.ferry.stack.LocalStack;
import io.ferry.stack.ServiceSpec;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;

/**
 * handle-resolver benchmark: stores N handles, then (from bench/resolver-bench.sh) wrk measures GET /api/handles and
 * proxy redirects against nginx serving a static file on this machine. This class prepares the data and prints
 * the URLs; the script runs the load.
 */
public final class ResolverBenchmark {

    public static void main(String[] args) throws Exception {
        int handles = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        Path state = LocalStack.projectRoot().resolve("integration-tests/target/bench-resolver");
        RatesBenchmark.deleteTree(state);
        int port = args.length > 1 ? Integer.parseInt(args[1]) : FreePort.find();
        LocalStack stack = new LocalStack(new LocalStack.Options(LocalStack.projectRoot(), state, Map.of(ServiceSpec.RESOLVER, port),
                null, FreePort.find(), Map.of()));
        // The script ends this process with SIGTERM: the services and PostgreSQL must not outlive it.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                stack.close();
            } catch (Exception e) {
                System.err.println("stopping the stack: " + e);
            }
        }));
        stack.start(Duration.ofMinutes(3));
        String base = "http://localhost:" + port;
        String token = stack.tokens().mint(DevTokens.Claims.of("bench", null, "handles:admin handles:write"));
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> homed = http.send(HttpRequest.newBuilder(URI.create(base + "/api/prefixes/20.500.1"))
                .header("Authorization", "Bearer " + token).POST(HttpRequest.BodyPublishers.ofString("{}"))
                .header("Content-Type", "application/json").build(), HttpResponse.BodyHandlers.ofString());
        if (homed.statusCode() != 200) {
            throw new IllegalStateException("cannot home the prefix: " + homed.body());
        }
        long t0 = System.nanoTime();
        try (Connection c = DriverManager.getConnection(stack.postgres().jdbcUrl("ferry_resolver"), stack.postgres().user(),
                stack.postgres().password()); Statement st = c.createStatement()) {
            st.execute("INSERT INTO handle (handle, prefix) SELECT '20.500.1/h' || i, '20.500.1' FROM generate_series(1, " + handles + ") i");
            st.execute("INSERT INTO handle_value (handle, idx, type, data_format, data_value, ttl) SELECT '20.500.1/h' || i, 1, 'URL', 'string', "
                    + "to_jsonb('https://data.example.org/atlas/file' || i), 86400 FROM generate_series(1, " + handles + ") i");
            st.execute("INSERT INTO handle_value (handle, idx, type, data_format, data_value, ttl) SELECT '20.500.1/h' || i, 100, 'HS_ADMIN', 'admin', "
                    + "'{\"handle\":\"bench\",\"index\":300,\"permissions\":\"111111111111\"}'::jsonb, 86400 FROM generate_series(1, " + handles + ") i");
            st.execute("ANALYZE handle; ANALYZE handle_value");
        }
        System.out.printf("LOADED   %,d handles in %.1f s%n", handles, (System.nanoTime() - t0) / 1e9);
        // The bulk load is announced as one change of everything: the resolver empties its cache and refills it.
        // Measure once the refill has settled, so the figures are of the steady state, not of the preload.
        long t1 = System.nanoTime();
        boolean cacheOff = "0".equals(System.getenv("FERRY_RESOLVER_CACHE_MAX_MEGABYTES"));
        long cached = cachedHandles(http, base);
        for (long last = -1; !cacheOff && (cached != last || cached == 0) && System.nanoTime() - t1 < 600_000_000_000L; ) {
            Thread.sleep(2000);
            last = cached;
            cached = cachedHandles(http, base);
        }
        System.out.printf("CACHED   %,d handles in memory after %.1f s (FERRY_RESOLVER_CACHE_MAX_MEGABYTES)%n", cached, (System.nanoTime() - t1) / 1e9);
        HttpResponse<String> sample = http.send(HttpRequest.newBuilder(URI.create(base + "/api/handles/20.500.1/h42")).build(),
                HttpResponse.BodyHandlers.ofString());
        Files.writeString(state.resolve("sample.json"), sample.body());
        System.out.println("RESOLVER " + base);
        // The script reads the resolver's CPU time (/proc) around each phase and its JVM's command line.
        System.out.println("PID      " + stack.service(ServiceSpec.RESOLVER).pid());
        System.out.println("SAMPLE   " + sample.body());
        System.out.flush();
        // Keep serving until the script is done with the load; it ends this process.
        Thread.currentThread().join();
    }

    /** The resolver's cache size from its metrics (0 when the cache is off). */
    static long cachedHandles(HttpClient http, String base) throws Exception {
        String metrics = http.send(HttpRequest.newBuilder(URI.create(base + "/q/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
        return metrics.lines().filter(l -> l.startsWith("cache_size{") && l.contains("handle-resolutions"))
                .mapToLong(l -> (long) Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }
}
