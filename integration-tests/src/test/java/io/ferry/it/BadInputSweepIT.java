package io.ferry.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ferry.dev.DevTokens;
import io.ferry.it.sweep.ApiOperation;
import io.ferry.it.sweep.HostileRequests;
import io.ferry.it.sweep.JsonSchemas;
import io.ferry.it.sweep.RawHttp;
import io.ferry.it.sweep.SweepTally;
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

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every operation of every service's OpenAPI document, attacked with hostile input: odd path and query values,
 * bad bodies, a 20 MB body, with an all-powerful token, without one and with invalid ones. No answer may be a 5xx,
 * every request must get an answer, every 4xx is problem+json with a {@code code} (or the error document of the
 * standard an API follows: Handle.net's, ALTO's), and the services stay live.
 * Then PostgreSQL goes away: requests that need it answer 503 with {@code Retry-After}, and work again after.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BadInputSweepIT {

    /** Every scope of every service: the requests pass authorization, so the input handling behind it is reached. */
    static final String ALL_SCOPES = "transfer:submit transfer:admin profiles:write profiles:admin handles:write handles:admin rates:write service";
    /** Variants a request without a valid token gets on an operation that needs one: it is refused before input is read. */
    static final int UNAUTHENTICATED_VARIANTS = 3;
    private static final ObjectMapper JSON = new ObjectMapper();
    /** HTTP/1.1, as clients and ingress controllers talk to the services; no h2c upgrade. */
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
    private LocalStack stack;
    private String admin;
    private List<String> invalidTokens;

    @BeforeAll
    void startStack() throws Exception {
        stack = ItStacks.start("it-sweep", Map.of());
        admin = stack.tokens().mint(DevTokens.Claims.of("sweep-admin", "atlas", ALL_SCOPES).withSite("RAL-LCG2"));
        String expired = stack.tokens().mint(DevTokens.Claims.of("sweep-admin", "atlas", ALL_SCOPES).withLifetime(Duration.ofMinutes(-5)));
        String tampered = admin.substring(0, admin.length() - 4) + (admin.endsWith("AAAA") ? "BBBB" : "AAAA");
        invalidTokens = List.of(expired, tampered, "not-a-jwt", "a.b.c");
    }

    @AfterAll
    void stopStack() throws Exception {
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    @Order(1)
    void noHostileRequestCostsA5xxOrAConnection() throws Exception {
        seed();
        Instant started = Instant.now();
        List<SweepTally> tallies = new ArrayList<>();
        for (ServiceProcess service : stack.services()) {
            tallies.add(sweep(service));
        }
        for (SweepTally t : tallies) {
            System.out.println(t.report());
        }
        System.out.printf("sweep: %d requests in %d s%n", tallies.stream().mapToInt(SweepTally::requests).sum(),
                Duration.between(started, Instant.now()).toSeconds());
        for (ServiceProcess service : stack.services()) {
            assertTrue(service.isAlive(), service.spec().name() + " died");
            assertEquals(200, service.status("/q/health/live"), service.spec().name() + " is not live after the sweep");
        }
        for (SweepTally t : tallies) {
            assertTrue(t.serverErrors().isEmpty() && t.dropped().isEmpty() && t.notProblems().isEmpty(), t.report());
        }
    }

    @Test
    @Order(2)
    void whilePostgresIsAwayRequestsThatNeedItAnswer503WithRetryAfterAndWorkAgainAfter() throws Exception {
        String scheduler = stack.service(ServiceSpec.SCHEDULER).url();
        Map<String, String[]> needDatabase = new java.util.LinkedHashMap<>();
        needDatabase.put("transfer-scheduler read", new String[]{"GET", scheduler + "/endpoints", null});
        needDatabase.put("transfer-scheduler submit", new String[]{"POST", scheduler + "/jobs",
                "{\"files\":[{\"sources\":[\"https://se1.example/data/in\"],\"destinations\":[\"https://se1.example/data/out\"]}]}"});
        needDatabase.put("tcp-profiles", new String[]{"GET", stack.service(ServiceSpec.PROFILES).url() + "/hosts", null});
        needDatabase.put("handle-resolver", new String[]{"GET", stack.service(ServiceSpec.RESOLVER).url() + "/api/prefixes", null});
        needDatabase.put("rate-aggregator", new String[]{"GET", stack.service(ServiceSpec.AGGREGATOR).url() + "/groups", null});
        stack.postgres().stop();
        try {
            // Several rounds: the first meets the pool's connections as PostgreSQL closed them, the later ones a refused connect.
            for (int round = 0; round < 3; round++) {
                for (Map.Entry<String, String[]> n : needDatabase.entrySet()) {
                    HttpResponse<String> r = send(n.getValue()[0], n.getValue()[1], admin, n.getValue()[2]);
                    String what = n.getKey() + " round " + round + ": " + r.statusCode() + " " + r.body();
                    assertEquals(503, r.statusCode(), what);
                    assertTrue(r.headers().firstValue("Retry-After").orElse("").matches("[1-9][0-9]*"), what);
                    assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json"), what);
                    assertEquals("DATABASE_UNAVAILABLE", JSON.readTree(r.body()).path("code").asText(), what);
                }
                Thread.sleep(500);
            }
        } finally {
            stack.postgres().start();
        }
        Instant deadline = Instant.now().plusSeconds(30);
        for (Map.Entry<String, String[]> n : needDatabase.entrySet()) {
            int status;
            do {
                status = send(n.getValue()[0], n.getValue()[1], admin, n.getValue()[2]).statusCode();
            } while (status == 503 && Instant.now().isBefore(deadline) && sleep(200));
            // Reads answer 200 again; the submit is answered by the scheduler's own rules again (whatever they decide).
            if (n.getValue()[0].equals("GET")) {
                assertEquals(200, status, n.getKey() + " after PostgreSQL is back");
            } else {
                assertTrue(status < 500, n.getKey() + " after PostgreSQL is back: " + status);
            }
        }
        for (ServiceProcess s : stack.services()) {
            assertTrue(s.isAlive(), s.spec().name() + " must not have died");
        }
    }

    private static boolean sleep(long millis) throws InterruptedException {
        Thread.sleep(millis);
        return true;
    }

    /** Objects named "1", the value the sweep puts wherever a plausible name goes, so that requests reach past the lookup. */
    private void seed() throws Exception {
        String scheduler = stack.service(ServiceSpec.SCHEDULER).url();
        String resolver = stack.service(ServiceSpec.RESOLVER).url();
        String profiles = stack.service(ServiceSpec.PROFILES).url();
        assertSeeded(send("PUT", scheduler + "/endpoints/1", admin, "{\"site\":\"RAL-LCG2\",\"baseUrls\":{\"https\":\"https://se1.example/data\"}}"));
        assertSeeded(send("POST", resolver + "/api/prefixes/1", admin, "{}"));
        // A URL without a path: the proxy's urlappend then has to build the whole path itself.
        assertSeeded(send("PUT", resolver + "/api/handles/1/1", admin,
                "{\"values\":[{\"index\":1,\"type\":\"URL\",\"data\":{\"format\":\"string\",\"value\":\"https://example.org\"}}]}"));
        assertSeeded(send("PUT", profiles + "/profiles/1", admin, "{\"summary\":\"sweep\",\"sysctls\":{\"net.core.rmem_max\":\"67108864\"}}"));
        assertSeeded(send("POST", profiles + "/hosts", admin, "{\"name\":\"1\",\"site\":\"RAL-LCG2\",\"nicSpeed\":\"10G\"}"));
        // A chunked body below the limit still reaches the resource (BodyLimitFilter reads chunked bodies itself).
        RawHttp.Answer chunked = RawHttp.send(stack.service(ServiceSpec.SCHEDULER).port(), "PUT", "/endpoints/1".getBytes(StandardCharsets.US_ASCII),
                admin, "{\"site\":\"RAL-LCG2\",\"baseUrls\":{\"https\":\"https://se1.example/data\"}}".getBytes(StandardCharsets.UTF_8),
                "application/json", true, 20_000);
        assertEquals(200, chunked.status(), new String(chunked.body(), StandardCharsets.UTF_8));
    }

    private static void assertSeeded(HttpResponse<String> r) {
        assertTrue(r.statusCode() / 100 == 2, r.request().method() + " " + r.uri() + " -> " + r.statusCode() + " " + r.body());
    }

    private SweepTally sweep(ServiceProcess service) throws Exception {
        String name = service.spec().name();
        JsonNode document = JSON.readTree(send("GET", service.url() + "/q/openapi?format=json", null, null).body());
        Files.writeString(Path.of("target", "it-sweep", name + ".openapi.json"), document.toPrettyString());
        HostileRequests hostile = new HostileRequests(new JsonSchemas(document));
        // Reads first, then writes, deletes last: deleting the seed objects early would leave later requests at a 404.
        List<ApiOperation> operations = new ArrayList<>(ApiOperation.all(document));
        operations.sort(Comparator.comparingInt(op -> List.of("GET", "POST", "PUT", "PATCH", "DELETE").indexOf(op.method())));
        SweepTally tally = new SweepTally(name);
        for (ApiOperation op : operations) {
            List<HostileRequests.Request> requests = new ArrayList<>();
            requests.add(hostile.plausible(op));
            requests.addAll(hostile.all(op));
            for (int i = 0; i < requests.size(); i++) {
                HostileRequests.Request r = requests.get(i);
                attack(service, tally, r, admin);
                if (!op.secured() || i < UNAUTHENTICATED_VARIANTS) {
                    attack(service, tally, r, null);
                }
            }
            for (String invalid : invalidTokens) {
                attack(service, tally, requests.get(0), invalid);
                attack(service, tally, requests.get(requests.size() > 1 ? 1 : 0), invalid);
            }
        }
        for (ApiOperation op : operations) {
            for (HostileRequests.RawRequest raw : hostile.raw(op)) {
                attackRaw(service, tally, raw, admin);
            }
        }
        for (ApiOperation op : operations) {
            if (op.takesBody()) {
                attackWhileSending(service, tally, hostile.huge(op), admin);
                attackWhileSending(service, tally, hostile.hugeChunked(op), admin);
            }
        }
        return tally;
    }

    private void attack(ServiceProcess service, SweepTally tally, HostileRequests.Request r, String token) {
        String label = r.method() + " " + abbreviatedTarget(r.target()) + " [" + r.label() + ", "
                + (token == null ? "no token" : token.equals(admin) ? "admin token" : "invalid token") + "]";
        try {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(service.url() + r.target())).timeout(Duration.ofSeconds(30))
                    .header("Accept", "application/json")
                    .method(r.method(), r.body() == null ? HttpRequest.BodyPublishers.noBody()
                            : r.chunked() ? HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(r.body()))
                            : HttpRequest.BodyPublishers.ofByteArray(r.body()));
            if (r.body() != null && r.contentType() != null) {
                b.header("Content-Type", r.contentType());
            }
            if (token != null) {
                b.header("Authorization", "Bearer " + token);
            }
            HttpResponse<InputStream> response = http.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
            String type = response.headers().firstValue("Content-Type").orElse("");
            byte[] body;
            try (InputStream in = response.body()) {
                // An event stream that opened stays open: its status and type are the answer.
                body = type.startsWith("text/event-stream") ? new byte[0] : in.readNBytes(1 << 20);
            }
            tally.answered(label, response.statusCode(), isProblemWithCode(type, body), hasItsOwnErrorShape(service, type, body));
        } catch (IOException e) {
            tally.dropped(label, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A large body goes over a socket that reads the answer while it writes, so that an early refusal is seen. */
    private void attackWhileSending(ServiceProcess service, SweepTally tally, HostileRequests.Request r, String token) {
        String label = r.method() + " " + abbreviatedTarget(r.target()) + " [" + r.label() + ", admin token]";
        try {
            RawHttp.Answer a = RawHttp.send(service.port(), r.method(), r.target().getBytes(StandardCharsets.US_ASCII), token, r.body(),
                    r.contentType(), r.chunked(), 60_000);
            tally.answered(label, a.status(), isProblemWithCode(a.contentType(), a.body()), hasItsOwnErrorShape(service, a.contentType(), a.body()));
        } catch (IOException e) {
            tally.dropped(label, e);
        }
    }

    private void attackRaw(ServiceProcess service, SweepTally tally, HostileRequests.RawRequest r, String token) {
        String label = r.method() + " " + abbreviatedTarget(new String(r.target(), StandardCharsets.ISO_8859_1)) + " [" + r.label() + ", admin token]";
        try {
            RawHttp.Answer a = RawHttp.send(service.port(), r.method(), r.target(), token, 30_000);
            if (a.status() == 400 && a.body().length == 0 && !isUri(r.target())) {
                // Quarkus's HTTP layer refuses a request target java.net.URI cannot parse with a bare 400, before any
                // route or resource of the service sees the request (VertxHttpRecorder#uriValid).
                tally.refusedBeforeRouting(label);
                return;
            }
            tally.answered(label, a.status(), isProblemWithCode(a.contentType(), a.body()),
                    hasItsOwnErrorShape(service, a.contentType(), a.body()));
        } catch (IOException e) {
            tally.dropped(label, e);
        }
    }

    private static boolean isUri(byte[] target) {
        try {
            new URI(new String(target, StandardCharsets.ISO_8859_1));
            return true;
        } catch (java.net.URISyntaxException e) {
            return false;
        }
    }

    private static String abbreviatedTarget(String target) {
        return target.length() > 120 ? target.substring(0, 60) + "…(" + target.length() + " chars)" : target;
    }

    private static boolean isProblemWithCode(String type, byte[] body) {
        if (!type.startsWith("application/problem+json")) {
            return false;
        }
        try {
            return !JSON.readTree(body).path("code").asText().isEmpty();
        } catch (IOException e) {
            return false;
        }
    }

    /** A service API whose standard defines its error document answers in that shape instead of a problem. */
    private static boolean hasItsOwnErrorShape(ServiceProcess service, String type, byte[] body) {
        return isHandleNetError(service, type, body) || isAltoError(service, type, body);
    }

    /** rate-aggregator's ALTO paths answer faults in RFC 7285's error document (docs/alto.md), with its code. */
    private static boolean isAltoError(ServiceProcess service, String type, byte[] body) {
        if (!service.spec().equals(ServiceSpec.AGGREGATOR) || !type.startsWith("application/alto-error+json")) {
            return false;
        }
        try {
            return JSON.readTree(body).path("meta").path("code").asText().startsWith("E_");
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * handle-resolver's Handle.net API answers errors in Handle.net's shape (services/handle-resolver/README.md), with
     * the RFC 7807 members added.
     */
    private static boolean isHandleNetError(ServiceProcess service, String type, byte[] body) {
        if (!service.spec().equals(ServiceSpec.RESOLVER) || !type.startsWith("application/json")) {
            return false;
        }
        try {
            JsonNode error = JSON.readTree(body);
            return error.path("responseCode").isInt() && error.path("status").isInt() && error.has("type");
        } catch (IOException e) {
            return false;
        }
    }

    private HttpResponse<String> send(String method, String url, String token, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(20))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
                .header("Content-Type", "application/json").header("Accept", "application/json");
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
