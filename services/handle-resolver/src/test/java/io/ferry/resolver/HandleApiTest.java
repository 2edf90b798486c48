package io.ferry.resolver;

import io.ferry.dev.DevTokens;
import io.ferry.dev.FerryTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Handle.net's JSON API, codes and permissions; the proxy; the replica catalogue and its ranking. */
@QuarkusTest
@WithTestResource(FerryTestResource.class)
@WithTestResource(SchedulerStandIn.class)
class HandleApiTest {

    static final String PREFIX = "10.5072";

    static String admin() {
        return FerryTestResource.token(DevTokens.Claims.of("ops", null, "handles:admin handles:write"));
    }

    static String user(String sub) {
        return FerryTestResource.token(DevTokens.Claims.of(sub, "atlas", "handles:write"));
    }

    static String url(String handle, String target, int ttl) {
        return "{\"values\":[{\"index\":1,\"type\":\"URL\",\"data\":{\"format\":\"string\",\"value\":\"" + target + "\"},\"ttl\":" + ttl + "},"
                + "{\"index\":2,\"type\":\"EMAIL\",\"data\":{\"format\":\"string\",\"value\":\"data@ral.example\"},\"ttl\":86400},"
                + "{\"index\":100,\"type\":\"HS_ADMIN\",\"data\":{\"format\":\"admin\",\"value\":{\"handle\":\"alice\",\"index\":300,"
                + "\"permissions\":\"000001000000\"}}}]}";
    }

    static String json(Response r) {
        return r.getBody().asString();
    }

    @BeforeEach
    void homePrefix() {
        given().auth().oauth2(admin()).contentType(ContentType.JSON).body("{}").post("/api/prefixes/" + PREFIX).then().statusCode(200);
    }

    @Test
    void responseCodesMatchHandleNet() {
        String h = PREFIX + "/codes-" + System.nanoTime();
        // 402 -> 401 without a token; 401 -> 403 with a bad one; 400 -> 403 without permission
        assertEquals("{\"responseCode\":402,\"handle\":\"" + h + "\",\"message\":\"Authentication Needed\",\"type\":\"https://ferry.io/problems/handle-402\","
                        + "\"title\":\"Authentication Needed\",\"status\":401,\"detail\":\"Authentication Needed\"}",
                json(given().contentType(ContentType.JSON).body(url(h, "https://a.example/", 3600)).put("/api/handles/" + h).then().statusCode(401).extract().response()));
        given().auth().oauth2("not-a-token").contentType(ContentType.JSON).body(url(h, "https://a.example/", 3600)).put("/api/handles/" + h)
                .then().statusCode(403).body("responseCode", equalTo(401));
        given().auth().oauth2(user("mallory")).contentType(ContentType.JSON).body(url(h, "https://a.example/", 3600)).put("/api/handles/" + h)
                .then().statusCode(403).body("responseCode", equalTo(400));
        // 1 -> 201 on create with overwrite=false
        assertEquals("{\"responseCode\":1,\"handle\":\"" + h + "\"}",
                json(given().auth().oauth2(admin()).contentType(ContentType.JSON).body(url(h, "https://a.example/", 3600))
                        .put("/api/handles/" + h + "?overwrite=false").then().statusCode(201).extract().response()));
        // 101 -> 409
        given().auth().oauth2(admin()).contentType(ContentType.JSON).body(url(h, "https://a.example/", 3600))
                .put("/api/handles/" + h + "?overwrite=false").then().statusCode(409).body("responseCode", equalTo(101))
                .body("message", equalTo("Handle Already Exists"));
        // 1 -> 200 on resolution, with the values in Handle.net's shape
        given().get("/api/handles/" + h).then().statusCode(200).body("responseCode", equalTo(1)).body("handle", equalTo(h))
                .body("values[0].index", equalTo(1)).body("values[0].type", equalTo("URL"))
                .body("values[0].data.format", equalTo("string")).body("values[0].data.value", equalTo("https://a.example/"))
                .body("values[0].ttl", equalTo(3600)).body("values[0].timestamp", org.hamcrest.Matchers.matchesPattern("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ"));
        // 200 -> 200 when the filter finds nothing
        given().get("/api/handles/" + h + "?type=DESCRIPTION").then().statusCode(200).body("responseCode", equalTo(200));
        given().get("/api/handles/" + h + "?type=EMAIL&index=1").then().statusCode(200).body("values.size()", equalTo(2));
        // 100 -> 404, 301 (prefix not homed) -> 400 as CNRI's REST API answers it, 102 -> 400
        assertEquals("{\"responseCode\":100,\"handle\":\"" + PREFIX + "/nothing-here\",\"message\":\"Handle Not Found\",\"type\":\"https://ferry.io/problems/handle-100\","
                        + "\"title\":\"Handle Not Found\",\"status\":404,\"detail\":\"Handle Not Found\"}",
                json(given().get("/api/handles/" + PREFIX + "/nothing-here").then().statusCode(404).extract().response()));
        given().get("/api/handles/11.9999/x").then().statusCode(400).body("responseCode", equalTo(301));
        given().get("/api/handles/10..5072/x").then().statusCode(400).body("responseCode", equalTo(102));
    }

    @Test
    void hsAdminPermissionBitsDecideWhoMayWriteWhat() {
        String h = PREFIX + "/perm-" + System.nanoTime();
        given().auth().oauth2(admin()).contentType(ContentType.JSON).body(url(h, "https://a.example/", 3600)).put("/api/handles/" + h).then().statusCode(200);
        String extra = "{\"values\":[{\"index\":5,\"type\":\"DESCRIPTION\",\"data\":{\"format\":\"string\",\"value\":\"run 2\"}}]}";
        // alice holds only "add value" (the 7th character from the right, as CNRI writes the 12 permissions)
        given().auth().oauth2(user("alice")).contentType(ContentType.JSON).body(extra).put("/api/handles/" + h + "?index=5&overwrite=false")
                .then().statusCode(200).body("responseCode", equalTo(1));
        given().auth().oauth2(user("alice")).contentType(ContentType.JSON).body(extra).put("/api/handles/" + h + "?index=5&overwrite=false")
                .then().statusCode(409).body("responseCode", equalTo(201));
        given().auth().oauth2(user("alice")).contentType(ContentType.JSON).body(url(h, "https://evil.example/", 60))
                .put("/api/handles/" + h + "?index=1").then().statusCode(403).body("responseCode", equalTo(400))
                .body("message", containsString("MODIFY_VALUE"));
        given().auth().oauth2(user("alice")).delete("/api/handles/" + h).then().statusCode(403);
        given().auth().oauth2(user("alice")).delete("/api/handles/" + h + "?index=2").then().statusCode(403);
        given().auth().oauth2(user("bob")).contentType(ContentType.JSON).body(extra.replace("\"index\":5", "\"index\":6"))
                .put("/api/handles/" + h + "?index=6").then().statusCode(403);
        given().get("/api/handles/" + h + "?index=1").then().body("values[0].data.value", equalTo("https://a.example/"));
        // The prefix administrator (ops, who homed it) may delete.
        given().auth().oauth2(FerryTestResource.token(DevTokens.Claims.of("ops", null, "handles:write"))).delete("/api/handles/" + h + "?index=5")
                .then().statusCode(200);
        given().auth().oauth2(FerryTestResource.token(DevTokens.Claims.of("ops", null, "handles:write"))).delete("/api/handles/" + h)
                .then().statusCode(200);
        given().get("/api/handles/" + h).then().statusCode(404);
    }

    @Test
    void aHandleWithItsSlashEscapedIsTheSameHandle() {
        // clients that quote the whole handle (urllib's quote(h, safe='')) send 10.5072%2Fx; CNRI decodes the path
        String suffix = "escaped-" + System.nanoTime();
        String h = PREFIX + "/" + suffix;
        String escaped = PREFIX + "%2F" + suffix;
        given().urlEncodingEnabled(false).auth().oauth2(admin()).contentType(ContentType.JSON).body(url(h, "https://a.example/esc", 3600))
                .put("/api/handles/" + escaped + "?overwrite=false").then().statusCode(201).body("handle", equalTo(h));
        given().get("/api/handles/" + h).then().statusCode(200).body("values[0].data.value", equalTo("https://a.example/esc"));
        given().urlEncodingEnabled(false).get("/api/handles/" + escaped + "?index=1").then().statusCode(200)
                .body("handle", equalTo(h)).body("values.size()", equalTo(1));
        // and the proxy, as doi.org takes /10.5072%2Fx
        given().urlEncodingEnabled(false).redirects().follow(false).get("/" + escaped).then().statusCode(302)
                .header("Location", equalTo("https://a.example/esc"));
        // not a way around the write rules: alice may not delete it, escaped or not
        given().urlEncodingEnabled(false).auth().oauth2(user("alice")).delete("/api/handles/" + escaped).then().statusCode(403);
        // a prefix alone names no handle, whichever method
        given().get("/api/handles/" + PREFIX).then().statusCode(400).body("responseCode", equalTo(102));
        given().auth().oauth2(admin()).delete("/api/handles/" + PREFIX).then().statusCode(400).body("responseCode", equalTo(102));
        given().urlEncodingEnabled(false).auth().oauth2(admin()).delete("/api/handles/" + escaped).then().statusCode(200);
        given().get("/api/handles/" + h).then().statusCode(404);
    }

    @Test
    void ttlsSetCacheControlAndExpires() {
        String h = PREFIX + "/ttl-" + System.nanoTime();
        String expiry = Instant.now().plus(2, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS).toString();
        given().auth().oauth2(admin()).contentType(ContentType.JSON).body("{\"values\":[{\"index\":1,\"type\":\"URL\",\"data\":{\"format\":\"string\","
                + "\"value\":\"https://a.example/\"},\"ttl\":86400},{\"index\":2,\"type\":\"CHECKSUM\",\"data\":{\"format\":\"hex\",\"value\":\"0a1b2c3d\"},"
                + "\"ttl\":\"" + expiry + "\"}]}").put("/api/handles/" + h).then().statusCode(200);
        Response r = given().get("/api/handles/" + h).then().statusCode(200).body("values[1].ttl", equalTo(expiry.replace(".000", ""))).extract().response();
        long maxAge = Long.parseLong(r.getHeader("Cache-Control").replaceAll(".*max-age=(\\d+).*", "$1"));
        assertTrue(maxAge > 7000 && maxAge <= 7200, "the absolute expiry in two hours is the smallest TTL: " + r.getHeader("Cache-Control"));
        assertTrue(r.getHeader("Expires") != null);
        given().get("/api/handles/" + h + "?index=1").then().header("Cache-Control", containsString("max-age=86400"));
    }

    @Test
    void badInputStoresNothing() {
        String h = PREFIX + "/bad-" + System.nanoTime();
        given().auth().oauth2(admin()).contentType(ContentType.JSON)
                .body("{\"values\":[{\"index\":1,\"type\":\"URL\",\"data\":{\"format\":\"xml\",\"value\":\"<a/>\"}}]}")
                .put("/api/handles/" + h).then().statusCode(400).body("responseCode", equalTo(202)).body("message", containsString("format"));
        given().auth().oauth2(admin()).contentType(ContentType.JSON)
                .body("{\"values\":[{\"index\":1,\"type\":\"URL\",\"data\":{\"format\":\"string\",\"value\":\"" + "x".repeat(70_000) + "\"}}]}")
                .put("/api/handles/" + h).then().statusCode(400).body("responseCode", equalTo(202));
        given().auth().oauth2(admin()).contentType(ContentType.JSON).body("{\"values\":[{\"index\":1,\"type\":\"URL\"")
                .put("/api/handles/" + h).then().statusCode(400);
        given().auth().oauth2(admin()).contentType(ContentType.JSON)
                .body("{\"values\":[{\"index\":100,\"type\":\"HS_ADMIN\",\"data\":{\"format\":\"admin\",\"value\":{\"handle\":\"x\",\"index\":1,\"permissions\":\"12\"}}}]}")
                .put("/api/handles/" + h).then().statusCode(400).body("message", containsString("permissions"));
        given().get("/api/handles/" + h).then().statusCode(404);
    }

    @Test
    void theProxyRedirectsChoosesLocationsAndShowsTombstones() {
        String h = PREFIX + "/proxy-" + System.nanoTime();
        given().auth().oauth2(admin()).contentType(ContentType.JSON).body(url(h, "https://data.ral.example/file1", 3600)).put("/api/handles/" + h).then().statusCode(200);
        given().redirects().follow(false).get("/" + h).then().statusCode(302).header("Location", equalTo("https://data.ral.example/file1"));
        given().redirects().follow(false).queryParam("urlappend", "?format=csv").get("/" + h).then().statusCode(302)
                .header("Location", equalTo("https://data.ral.example/file1?format=csv"));
        given().redirects().follow(false).accept("text/html").get("/" + h + "?noredirect").then().statusCode(200)
                .contentType(containsString("text/html")).body(containsString("data.ral.example/file1"));
        given().redirects().follow(false).accept(ContentType.JSON).get("/" + h + "?noredirect").then().statusCode(200).body("values[0].type", equalTo("URL"));
        given().redirects().follow(false).get("/" + PREFIX + "/no-such-thing").then().statusCode(404).contentType(containsString("text/html"));

        String alias = PREFIX + "/alias-" + System.nanoTime();
        given().auth().oauth2(admin()).contentType(ContentType.JSON).body("{\"values\":[{\"index\":1,\"type\":\"HS_ALIAS\",\"data\":{\"format\":\"string\",\"value\":\"" + h + "\"}}]}")
                .put("/api/handles/" + alias).then().statusCode(200);
        given().redirects().follow(false).get("/" + alias).then().statusCode(301).header("Location", startsWith("http")).header("Location", containsString("/" + h));

        given().auth().oauth2(admin()).queryParam("reason", "disk lost").delete("/objects/" + h).then().statusCode(204);
        given().redirects().follow(false).get("/" + h).then().statusCode(410).body(containsString("disk lost"));
        given().get("/api/handles/" + h).then().statusCode(200).body("tombstone.reason", equalTo("disk lost"));
        given().auth().oauth2(user("alice")).contentType(ContentType.JSON).post("/objects/" + h + "/restore").then().statusCode(403);
        given().auth().oauth2(admin()).contentType(ContentType.JSON).post("/objects/" + h + "/restore").then().statusCode(204);
        given().redirects().follow(false).get("/" + h).then().statusCode(302);
    }

    @Test
    void locationsAreChosenByAttributeThenByWeight() {
        String h = PREFIX + "/loc-" + System.nanoTime();
        String loc = "<locations><location id=\\\"0\\\" href=\\\"https://a.example/f\\\" weight=\\\"1\\\" country=\\\"ch\\\"/>"
                + "<location id=\\\"1\\\" href=\\\"https://b.example/f\\\" weight=\\\"3\\\" country=\\\"gb\\\"/></locations>";
        given().auth().oauth2(admin()).contentType(ContentType.JSON).body("{\"values\":[{\"index\":1,\"type\":\"10320/loc\",\"data\":{\"format\":\"string\",\"value\":\"" + loc + "\"}}]}")
                .put("/api/handles/" + h).then().statusCode(200);
        int n = 1200;
        int b = 0;
        for (int i = 0; i < n; i++) {
            if (given().redirects().follow(false).get("/" + h).getHeader("Location").startsWith("https://b.")) {
                b++;
            }
        }
        double share = b / (double) n;
        // weight 3 of 4: expected 0.75, standard deviation 0.0125 at n=1200; allow 4 sigma.
        assertTrue(Math.abs(share - 0.75) < 0.05, "share of the weight-3 location: " + share);
        for (int i = 0; i < 20; i++) {
            given().redirects().follow(false).get("/" + h + "?locatt=country:ch").then().header("Location", equalTo("https://a.example/f"));
        }
    }

    @Test
    void replicasAreRankedForADestinationWithTheirTurlsAndAtRiskDataIsReported() {
        String h = PREFIX + "/obj-" + System.nanoTime();
        given().auth().oauth2(admin()).contentType(ContentType.JSON).body(url(h, "https://a.example/", 3600)).put("/api/handles/" + h).then().statusCode(200);
        String lfn = "/atlas/data18/" + h.substring(h.indexOf('/') + 1);
        String did = "atlas:" + h.substring(h.indexOf('/') + 1);
        given().auth().oauth2(user("alice")).contentType(ContentType.JSON).body("{\"name\":\"" + lfn + "\",\"handle\":\"" + h + "\"}").post("/names")
                .then().statusCode(201).body("kind", equalTo("lfn"));
        given().auth().oauth2(user("alice")).contentType(ContentType.JSON).body("{\"name\":\"" + did + "\",\"handle\":\"" + h + "\"}").post("/names")
                .then().statusCode(201).body("kind", equalTo("did"));
        given().auth().oauth2(user("alice")).contentType(ContentType.JSON).body("{\"name\":\"" + did + "\",\"handle\":\"" + h + "\"}").post("/names").then().statusCode(409);
        for (String se : new String[]{"RAL-ECHO", "CERN-EOS"}) {
            given().auth().oauth2(user("alice")).contentType(ContentType.JSON)
                    .body("{\"handle\":\"" + h + "\",\"se\":\"" + se + "\",\"path\":\"data18/f1\",\"size\":2000000000,\"adler32\":\"0A1B2C3D\"}")
                    .put("/replicas").then().statusCode(204);
        }
        given().auth().oauth2(user("alice")).contentType(ContentType.JSON)
                .body("{\"handle\":\"" + h + "\",\"se\":\"NOWHERE\",\"path\":\"f\"}").put("/replicas").then().statusCode(422).body("code", equalTo("UNKNOWN_SE"));
        given().auth().oauth2(user("alice")).contentType(ContentType.JSON)
                .body("{\"handle\":\"" + h + "\",\"se\":\"RAL-ECHO\",\"path\":\"../etc/passwd\"}").put("/replicas").then().statusCode(400);
        given().auth().oauth2(user("bob")).contentType(ContentType.JSON)
                .body("{\"handle\":\"" + h + "\",\"se\":\"RAL-ECHO\",\"path\":\"x\"}").put("/replicas").then().statusCode(403);

        // rate-aggregator is not running here: ranking falls back to static distance and says so.
        given().get("/replicas/" + did + "?destination=CERN-EOS&protocol=https").then().statusCode(200)
                .body("handle", equalTo(h)).body("rankedBy", containsString("static distance"))
                .body("replicas[0].se", equalTo("CERN-EOS")).body("replicas[0].distance", equalTo(0))
                .body("replicas[0].turl", equalTo("https://eos.cern.example/eos/data18/f1"))
                .body("replicas[1].turl", equalTo("https://echo.ral.example/atlas/data18/f1"))
                .body("names", hasItem(lfn));
        given().queryParam("id", lfn).get("/replicas?destination=CERN-TAPE&protocol=https").then().statusCode(200)
                .body("replicas[0].se", equalTo("CERN-EOS")).body("replicas[0].distance", equalTo(1));
        given().get("/replicas" + lfn + "?protocol=https").then().statusCode(200).body("handle", equalTo(h));
        given().get("/replicas/" + h + "?protocol=ftp").then().statusCode(400);
        given().get("/replicas/no:such-name").then().statusCode(404);

        String single = PREFIX + "/single-" + System.nanoTime();
        given().auth().oauth2(admin()).contentType(ContentType.JSON).body(url(single, "https://a.example/", 3600)).put("/api/handles/" + single).then().statusCode(200);
        given().auth().oauth2(admin()).contentType(ContentType.JSON)
                .body("{\"handle\":\"" + single + "\",\"se\":\"RAL-ECHO\",\"path\":\"user/only-copy\",\"size\":500}").put("/replicas").then().statusCode(204);
        given().get("/reports/at-risk?min_replicas=2").then().statusCode(200)
                .body("items.handle", hasItem(single)).body("singleCopy", org.hamcrest.Matchers.greaterThanOrEqualTo(1))
                .body("items.handle", org.hamcrest.Matchers.not(hasItem(h)));
    }
}
