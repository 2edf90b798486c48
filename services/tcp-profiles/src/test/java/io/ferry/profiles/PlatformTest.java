package io.ferry.profiles;

import io.ferry.dev.DevTokens;
import io.ferry.dev.FerryTestResource;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What every Ferry service promises: health with the database, tokens, problem+json, telemetry, metrics. */
@QuarkusTest
@WithTestResource(FerryTestResource.class)
class PlatformTest {

    static final String PROBLEM = "application/problem+json";

    @Inject
    InMemorySpanExporter spans;

    static String siteAdmin(String site) {
        return FerryTestResource.token(DevTokens.Claims.of("admin@" + site, null, "profiles:write").withSite(site));
    }

    static String host(String name, String site, String nic) {
        return "{\"name\":\"" + name + "\",\"site\":\"" + site + "\",\"nicSpeed\":\"" + nic
                + "\",\"labels\":{\"pool\":\"wan-in\",\"role\":\"disk-server\"}}";
    }

    @Test
    void healthProbesIncludeTheDatabase() {
        given().get("/q/health/live").then().statusCode(200).body("status", equalTo("UP"));
        given().get("/q/health/started").then().statusCode(200);
        given().get("/q/health/ready").then().statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.name", hasItem(containsString("Reactive PostgreSQL")));
    }

    @Test
    void writesWithoutAValidTokenAre401ProblemsAndStoreNothing() {
        given().contentType(ContentType.JSON).body(host("a1.ral.example", "RAL-LCG2", "10G"))
                .post("/hosts").then().statusCode(401).contentType(PROBLEM)
                .header("WWW-Authenticate", startsWith("Bearer"))
                .body("status", equalTo(401)).body("code", equalTo("UNAUTHENTICATED"));
        String expired = FerryTestResource.token(DevTokens.Claims.of("x", null, "profiles:write")
                .withSite("RAL-LCG2").withLifetime(Duration.ofMinutes(-10)));
        String foreignIssuer = FerryTestResource.token(DevTokens.Claims.of("x", null, "profiles:write")
                .withSite("RAL-LCG2").withIssuer("https://elsewhere.example"));
        Map<String, String> refusals = Map.of(expired, "TOKEN_EXPIRED", foreignIssuer, "TOKEN_UNKNOWN_ISSUER",
                "not.a.jwt", "TOKEN_MALFORMED", siteAdmin("RAL-LCG2") + "x", "TOKEN_BAD_SIGNATURE");
        refusals.forEach((bad, code) -> given().auth().oauth2(bad).contentType(ContentType.JSON)
                .body(host("a1.ral.example", "RAL-LCG2", "10G"))
                .post("/hosts").then().statusCode(401).contentType(PROBLEM).body("code", equalTo(code)));
        given().auth().oauth2(siteAdmin("RAL-LCG2")).get("/hosts/a1.ral.example").then().statusCode(404).contentType(PROBLEM);
    }

    @Test
    void wrongScopeOrWrongSiteIs403() {
        String readOnly = FerryTestResource.token(DevTokens.Claims.of("u", "atlas", "transfer:submit").withSite("RAL-LCG2"));
        given().auth().oauth2(readOnly).contentType(ContentType.JSON).body(host("b1.ral.example", "RAL-LCG2", "10G"))
                .post("/hosts").then().statusCode(403).contentType(PROBLEM).body("code", equalTo("FORBIDDEN"));
        given().auth().oauth2(siteAdmin("FNAL")).contentType(ContentType.JSON).body(host("b1.ral.example", "RAL-LCG2", "10G"))
                .post("/hosts").then().statusCode(403).contentType(PROBLEM);
        given().auth().oauth2(siteAdmin("RAL-LCG2")).get("/hosts/b1.ral.example").then().statusCode(404);
    }

    @Test
    void siteAdminManagesOwnHosts() {
        String ral = siteAdmin("RAL-LCG2");
        given().auth().oauth2(ral).contentType(ContentType.JSON).body(host("c1.ral.example", "RAL-LCG2", "10G"))
                .post("/hosts").then().statusCode(201).header("Location", containsString("/hosts/c1.ral.example"))
                .body("nicSpeedMbps", equalTo(10000)).body("labels.pool", equalTo("wan-in"));
        given().auth().oauth2(ral).contentType(ContentType.JSON).body(host("c1.ral.example", "RAL-LCG2", "10G"))
                .post("/hosts").then().statusCode(409).contentType(PROBLEM).body("code", equalTo("HOST_EXISTS"));
        given().auth().oauth2(siteAdmin("FNAL")).delete("/hosts/c1.ral.example").then().statusCode(403);
        given().auth().oauth2(ral).get("/hosts?site=RAL-LCG2&label=pool=wan-in").then().statusCode(200)
                .body("name", hasItem("c1.ral.example"));
        given().auth().oauth2(ral).delete("/hosts/c1.ral.example").then().statusCode(204);
        given().auth().oauth2(ral).get("/hosts/c1.ral.example").then().statusCode(404);
    }

    @Test
    void badInputIs4xxWithTheOffendingFieldsAndStoresNothing() {
        String ral = siteAdmin("RAL-LCG2");
        given().auth().oauth2(ral).contentType(ContentType.JSON).body(host("d1.ral.example", "RAL-LCG2", "fast"))
                .post("/hosts").then().statusCode(400).contentType(PROBLEM).body("errors.field", hasItem("nicSpeed"));
        given().auth().oauth2(ral).contentType(ContentType.JSON).body(host("bad name!", "RAL-LCG2", "10G"))
                .post("/hosts").then().statusCode(400).contentType(PROBLEM).body("errors.field", hasItem("name"));
        given().auth().oauth2(ral).contentType(ContentType.JSON).body("{\"name\": \"d1.ral.example\", ")
                .post("/hosts").then().statusCode(400).contentType(PROBLEM).body("code", equalTo("MALFORMED_BODY"));
        given().auth().oauth2(ral).contentType(ContentType.TEXT).body("name=d1")
                .post("/hosts").then().statusCode(415).contentType(PROBLEM);
        given().auth().oauth2(ral).contentType(ContentType.JSON).body("[" + "x".repeat(2_000_000) + "]")
                .post("/hosts/import").then().statusCode(413).contentType(PROBLEM).body("code", equalTo("BODY_TOO_LARGE"));
        given().auth().oauth2(ral).contentType(ContentType.JSON)
                .body("[" + host("e1.ral.example", "RAL-LCG2", "10G") + "," + host("e2.ral.example", "RAL-LCG2", "ten") + "]")
                .post("/hosts/import").then().statusCode(400).body("errors.field", hasItem("[1].nicSpeed"));
        given().auth().oauth2(ral).get("/hosts/d1.ral.example").then().statusCode(404);
        given().auth().oauth2(ral).get("/hosts/e1.ral.example").then().statusCode(404);
    }

    @Test
    void requestsLeaveServerAndDatabaseSpans() {
        // The request joins a trace of the test's own (W3C traceparent), so the spans looked at are this request's
        // and not a late-ending server span of an earlier test's request.
        String traceId = java.util.HexFormat.of().formatHex(java.nio.ByteBuffer.allocate(16)
                .putLong(java.util.concurrent.ThreadLocalRandom.current().nextLong()).putLong(System.nanoTime()).array());
        String ral = siteAdmin("RAL-LCG2");
        given().auth().oauth2(ral).header("traceparent", "00-" + traceId + "-00f067aa0ba902b7-01").contentType(ContentType.JSON)
                .body(host("f1.ral.example", "RAL-LCG2", "25G")).post("/hosts").then().statusCode(201);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            List<String> sameTrace = spans.getFinishedSpanItems().stream().filter(s -> s.getTraceId().equals(traceId))
                    .map(s -> s.getKind() + " " + s.getName()).toList();
            assertTrue(sameTrace.contains("SERVER POST /hosts"), "no server span in the request's trace: " + sameTrace);
            assertTrue(sameTrace.contains("CLIENT INSERT host"), "no database span in the request's trace: " + sameTrace);
            assertTrue(sameTrace.contains("INTERNAL HostService.create"), "no service span in the request's trace: " + sameTrace);
        });
    }

    @Test
    void metricsAndOpenApiArePublished() {
        given().get("/q/health/live").then().statusCode(200);
        given().auth().oauth2(siteAdmin("RAL-LCG2")).get("/hosts").then().statusCode(200);
        given().get("/q/metrics").then().statusCode(200).body(containsString("http_server_requests_seconds"));
        given().get("/q/openapi?format=json").then().statusCode(200).body("paths", org.hamcrest.Matchers.hasKey("/hosts"))
                // any status an operation does not list is documented as an RFC 7807 problem
                .body("paths.'/hosts'.get.responses.default.content.'application/problem+json'.schema.'$ref'",
                        org.hamcrest.Matchers.equalTo("#/components/schemas/Problem"))
                .body("components.schemas.Problem.required", org.hamcrest.Matchers.hasItems("type", "title", "status", "code"));
    }
}
