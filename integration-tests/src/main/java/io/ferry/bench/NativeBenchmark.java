package io.ferry.bench;

import io.ferry.dev.DevTokens;
import io.ferry.dev.FreePort;
import io.ferry.stack.LocalStack;
import io.ferry.stack.ServiceProcess;
import io.ferry.stack.ServiceSpec;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * JVM against native, per service, on one machine in one run: time from exec to the first 200 of /q/health/ready,
 * RSS when idle, RSS after N authenticated GETs of a real read. Each service is restarted alone for its timing
 * (the stack's first start runs the four side by side), so its database is migrated already, as on any restart.
 * Run by integration-tests/bench/native-bench.sh.
 */
public final class NativeBenchmark {

    /** One real read per service: what a client polls. */
    static final Map<ServiceSpec, String> READS = Map.of(
            ServiceSpec.SCHEDULER, "/endpoints",
            ServiceSpec.PROFILES, "/hosts",
            ServiceSpec.RESOLVER, "/api/prefixes",
            ServiceSpec.AGGREGATOR, "/links?window=1h");

    public static void main(String[] args) throws Exception {
        int requests = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        List<String> modes = List.of((args.length > 1 ? args[1] : "jvm,native").split(","));
        List<String> names = List.of((args.length > 2 ? args[2] : String.join(",", ServiceSpec.ALL.stream().map(ServiceSpec::name).toList())).split(","));
        List<ServiceSpec> services = ServiceSpec.ALL.stream().filter(s -> names.contains(s.name())).toList();
        System.out.println("mode    service             ready_ms  rss_idle_MB  rss_after_MB  requests  failed  req_per_s");
        for (String mode : modes) {
            System.setProperty(ServiceProcess.NATIVE, Boolean.toString(mode.equals("native")));
            run(mode, requests, services);
        }
    }

    static void run(String mode, int requests, List<ServiceSpec> services) throws Exception {
        Path root = LocalStack.projectRoot();
        Path state = root.resolve("integration-tests/target/native-bench-" + mode);
        Map<ServiceSpec, Integer> ports = new LinkedHashMap<>();
        services.forEach(s -> ports.put(s, FreePort.find()));
        try (LocalStack stack = new LocalStack(new LocalStack.Options(root, state, ports, null, FreePort.find(), Map.of()))) {
            stack.start(Duration.ofMinutes(3));
            String token = stack.tokens().mint(DevTokens.Claims.of("bench", "atlas",
                    "transfer:read profiles:read resolver:read rates:read"));
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            for (ServiceSpec spec : services) {
                ServiceProcess s = stack.service(spec);
                s.stop(Duration.ofSeconds(20));
                long t0 = System.nanoTime();
                s.start();
                while (s.readiness() != 200) {
                    if (!s.isAlive()) {
                        throw new IllegalStateException(spec.name() + " died:\n" + s.tail(40));
                    }
                    Thread.sleep(2);
                }
                double readyMs = (System.nanoTime() - t0) / 1e6;
                Thread.sleep(2000);
                double idle = rssMegabytes(s.pid());
                long start = System.nanoTime();
                int failed = load(http, URI.create(s.url() + READS.get(spec)), token, requests);
                double seconds = (System.nanoTime() - start) / 1e9;
                double after = rssMegabytes(s.pid());
                System.out.printf("%-7s %-19s %8.0f  %11.1f  %12.1f  %8d  %6d  %9.0f%n",
                        mode, spec.name(), readyMs, idle, after, requests, failed, requests / seconds);
            }
        }
    }

    /** {@code count} GETs from 4 clients; returns how many did not answer 200. */
    static int load(HttpClient http, URI uri, String token, int count) throws Exception {
        AtomicInteger next = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        HttpRequest request = HttpRequest.newBuilder(uri).header("Authorization", "Bearer " + token)
                .timeout(Duration.ofSeconds(30)).GET().build();
        ExecutorService clients = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new java.util.ArrayList<>();
            for (int c = 0; c < 4; c++) {
                done.add(clients.submit(() -> {
                    while (next.getAndIncrement() < count) {
                        try {
                            if (http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() != 200) {
                                failed.incrementAndGet();
                            }
                        } catch (Exception e) {
                            failed.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            clients.shutdownNow();
        }
        return failed.get();
    }

    static double rssMegabytes(long pid) throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0;
            }
        }
        return -1;
    }
}
