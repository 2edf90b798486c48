package io.ferry.it;

import io.ferry.dev.DevTokens;
import io.ferry.dev.FreePort;
import io.ferry.stack.LocalStack;
import io.ferry.stack.ServiceProcess;
import io.ferry.stack.ServiceSpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.IntPredicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The four packaged services as real processes on real ports, on a real PostgreSQL. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StackIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private LocalStack stack;

    @BeforeAll
    void startStack() throws Exception {
        Map<ServiceSpec, Integer> ports = new LinkedHashMap<>();
        ServiceSpec.ALL.forEach(s -> ports.put(s, FreePort.find()));
        Path state = Path.of("target", "it-stack").toAbsolutePath();
        stack = new LocalStack(new LocalStack.Options(LocalStack.projectRoot(), state, ports, null, FreePort.find(),
                Map.of("FERRY_HTTP_ACCESS_LOG", "true")));
        stack.start(Duration.ofMinutes(4));
    }

    @AfterAll
    void stopStack() throws Exception {
        if (stack != null) {
            stack.close();
        }
    }

    private String token(String vo, String scope) {
        return stack.tokens().mint(DevTokens.Claims.of("it-user", vo, scope).withSite("RAL-LCG2"));
    }

    private HttpResponse<String> send(String method, String url, String token, String body, Map<String, String> headers)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(20))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/json");
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        headers.forEach(b::header);
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    @Order(1)
    void everyServiceIsReadyWithItsDatabase() throws Exception {
        for (ServiceProcess s : stack.services()) {
            HttpResponse<String> r = send("GET", s.url() + "/q/health/ready", null, null, Map.of());
            assertEquals(200, r.statusCode(), s.spec().name());
            assertTrue(r.body().contains("Reactive PostgreSQL connections health check"), s.spec().name() + ": " + r.body());
        }
    }

    @Test
    @Order(2)
    void writesNeedAValidTokenWithTheRightScope() throws Exception {
        Map<ServiceSpec, String[]> writes = Map.of(
                ServiceSpec.SCHEDULER, new String[]{"PUT", "/config/se/IT-SE", "{\"site\":\"IT\",\"baseUrls\":{\"https\":\"https://it.example/x\"}}"},
                ServiceSpec.PROFILES, new String[]{"POST", "/hosts", "{\"name\":\"it1.example\",\"site\":\"RAL-LCG2\",\"nicSpeed\":\"10G\"}"},
                ServiceSpec.RESOLVER, new String[]{"POST", "/storage-elements/refresh", null},
                ServiceSpec.AGGREGATOR, new String[]{"POST", "/records", "[]"});
        String wrongScope = token("atlas", "nothing:useful");
        String expired = stack.tokens().mint(DevTokens.Claims.of("it", "atlas", "transfer:admin profiles:write handles:admin rates:write")
                .withLifetime(Duration.ofMinutes(-5)));
        for (Map.Entry<ServiceSpec, String[]> w : writes.entrySet()) {
            String url = stack.service(w.getKey()).url() + w.getValue()[1];
            String name = w.getKey().name();
            HttpResponse<String> anonymous = send(w.getValue()[0], url, null, w.getValue()[2], Map.of());
            assertEquals(401, anonymous.statusCode(), name);
            assertEquals("application/problem+json", anonymous.headers().firstValue("Content-Type").orElse(""), name);
            assertEquals(401, send(w.getValue()[0], url, expired, w.getValue()[2], Map.of()).statusCode(), name);
            HttpResponse<String> forbidden = send(w.getValue()[0], url, wrongScope, w.getValue()[2], Map.of());
            assertEquals(403, forbidden.statusCode(), name);
            assertTrue(forbidden.body().contains("\"status\":403"), name + ": " + forbidden.body());
        }
    }

    @Test
    @Order(3)
    void aCrossServiceCallCarriesOneTrace() throws Exception {
        String admin = token(null, "transfer:admin handles:admin");
        HttpResponse<String> se = send("PUT", stack.service(ServiceSpec.SCHEDULER).url() + "/config/se/RAL-ECHO", admin,
                "{\"site\":\"RAL-LCG2\",\"baseUrls\":{\"https\":\"https://echo.ral.example/atlas\"}}", Map.of());
        assertTrue(se.statusCode() == 201 || se.statusCode() == 200, se.body());
        String traceId = "4bf92f3577b34da6a3ce929d0e0e" + Long.toHexString(System.nanoTime() & 0xffff | 0x1000);
        HttpResponse<String> refreshed = send("POST", stack.service(ServiceSpec.RESOLVER).url() + "/storage-elements/refresh",
                admin, null, Map.of("traceparent", "00-" + traceId + "-00f067aa0ba902b7-01"));
        assertEquals(200, refreshed.statusCode(), refreshed.body());
        assertTrue(refreshed.body().contains("\"basis\":\"live\"") && refreshed.body().contains("RAL-ECHO"), refreshed.body());
        // The scheduler received the resolver's call inside the caller's trace (a new parent span, the same trace id).
        Path schedulerLog = stack.service(ServiceSpec.SCHEDULER).log();
        awaitTrue(Duration.ofSeconds(10), () -> Files.readString(schedulerLog).lines()
                .anyMatch(l -> l.contains("/config/se ") && l.contains("traceparent=00-" + traceId + "-")
                        && !l.contains("00f067aa0ba902b7")), "scheduler log shows the trace " + traceId);
    }

    @Test
    @Order(4)
    void readinessFollowsTheDatabaseWithoutRestarts() throws Exception {
        Instant stopped = Instant.now();
        stack.postgres().stop();
        Duration down = awaitAll(s -> s != 200, Duration.ofSeconds(10));
        System.out.printf("readiness DOWN on all four %d ms after PostgreSQL stopped%n", down.toMillis());
        stack.postgres().start();
        Duration up = awaitAll(s -> s == 200, Duration.ofSeconds(10));
        System.out.printf("readiness UP on all four %d ms after PostgreSQL started%n", up.toMillis());
        for (ServiceProcess s : stack.services()) {
            assertTrue(s.isAlive(), s.spec().name() + " must not have restarted or died");
        }
        assertTrue(Duration.between(stopped, Instant.now()).toSeconds() < 60);
    }

    private Duration awaitAll(IntPredicate wanted, Duration within) throws InterruptedException {
        Instant start = Instant.now();
        Instant deadline = start.plus(within);
        while (Instant.now().isBefore(deadline)) {
            if (stack.services().stream().allMatch(s -> wanted.test(s.readiness()))) {
                return Duration.between(start, Instant.now());
            }
            Thread.sleep(200);
        }
        StringBuilder states = new StringBuilder();
        stack.services().forEach(s -> states.append(s.spec().name()).append('=').append(s.readiness()).append(' '));
        throw new AssertionError("readiness did not change within " + within.toSeconds() + " s: " + states);
    }

    interface Check {
        boolean holds() throws Exception;
    }

    private static void awaitTrue(Duration within, Check check, String what) throws Exception {
        Instant deadline = Instant.now().plus(within);
        while (Instant.now().isBefore(deadline)) {
            if (check.holds()) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("not seen within " + within.toSeconds() + " s: " + what);
    }
}
