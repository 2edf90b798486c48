package io.ferry.scheduler.storage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ferry.dev.DevTokens;
import io.ferry.dev.FerryTestResource;
import io.ferry.scheduler.submission.MaxRate;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** The SE catalogue and FTS3 discovery, with the platform's auth and error behaviour. */
@QuarkusTest
@WithTestResource(value = FerryTestResource.class, scope = TestResourceScope.GLOBAL)
class StorageEndpointTest {

    static final String PROBLEM = "application/problem+json";
    static final String SE = "{\"site\":\"RAL-LCG2\",\"baseUrls\":{\"https\":\"https://echo.ral.example:1094/atlas/\"},"
            + "\"needsPrepare\":false,\"inboundMaxActive\":100}";

    @TestHTTPResource("/")
    URL base;

    @Test
    void fts3ClientsDiscoverTheApiAnonymously() {
        given().get("/").then().statusCode(200).body("api.major", equalTo(3));
        given().get("/whoami").then().statusCode(401).contentType(PROBLEM);
        given().auth().oauth2(FerryTestResource.token("atlas", "transfer:submit")).get("/whoami")
                .then().statusCode(200).body("vos", hasItem("atlas")).body("user_dn", equalTo("test-user"))
                .body("dn", equalTo(List.of("test-user")))
                // fts-rest: uuid5(BASE_ID, vo), BASE_ID itself, sha1(iss + sub) cut to 16 hex digits
                .body("vos_id", equalTo(List.of("a884b056-0359-5c31-af8e-e25b2d364632")))
                .body("base_id", equalTo("01874efb-4735-4595-bc9c-591aef8240c9"))
                .body("delegation_id", equalTo("1c8106c8eef615cf"))
                .body("voms_cred", equalTo(List.of("transfer:submit")))
                .body("method", equalTo("oauth2")).body("is_root", equalTo(false))
                .body("level.transfer", equalTo("vo"));
    }

    @Test
    void theFts3ClientsDoubleSlashPathsReachTheirRoutes() throws Exception {
        // fts-rest requests endpoint + "/" + path: GET // first, then //whoami, //jobs, ...
        assertThat(raw("GET // HTTP/1.1"), allOf(startsWith("HTTP/1.1 200"), containsString("\"major\":3")));
        assertThat(raw("GET //whoami HTTP/1.1", "Authorization: Bearer " + FerryTestResource.token("atlas", "transfer:submit")),
                allOf(startsWith("HTTP/1.1 200"), containsString("\"vos\":[\"atlas\"]")));
        assertThat(raw("GET //jobs?limit=1 HTTP/1.1"), allOf(startsWith("HTTP/1.1 401"), containsString(PROBLEM)));
        // with Quarkus's own URI check off, the scheduler's still refuses what does not parse, with a problem
        assertThat(raw("GET /jobs/{x} HTTP/1.1"), allOf(startsWith("HTTP/1.1 400"), containsString("MALFORMED_URI")));
    }

    /** One request as written on the wire (RestAssured and java.net.URI would rewrite these request lines). */
    private String raw(String requestLine, String... headers) throws Exception {
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(10_000);
            StringBuilder request = new StringBuilder(requestLine).append("\r\nHost: 127.0.0.1\r\nConnection: close\r\n");
            for (String h : headers) {
                request.append(h).append("\r\n");
            }
            OutputStream out = socket.getOutputStream();
            out.write(request.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void tokensFromAnUnknownIssuerAre401WithTheirReason() {
        String foreign = FerryTestResource.token(DevTokens.Claims.of("mallory", "atlas", "transfer:admin")
                .withIssuer("https://elsewhere.example/issuer"));
        given().auth().oauth2(foreign).get("/whoami").then().statusCode(401).contentType(PROBLEM)
                .body("code", equalTo("TOKEN_UNKNOWN_ISSUER"));
        given().auth().oauth2(foreign).contentType(ContentType.JSON).body(SE).put("/endpoints/RAL-FOREIGN")
                .then().statusCode(401).contentType(PROBLEM).body("code", equalTo("TOKEN_UNKNOWN_ISSUER"));
        given().auth().oauth2(FerryTestResource.token(null, "transfer:admin")).get("/endpoints/RAL-FOREIGN")
                .then().statusCode(404);
    }

    @Test
    void readinessIncludesTheDatabase() {
        given().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
    }

    @Test
    void onlyAdministratorsRegisterStorageEndpoints() {
        given().contentType(ContentType.JSON).body(SE).put("/endpoints/RAL-ECHO").then().statusCode(401).contentType(PROBLEM);
        given().auth().oauth2(FerryTestResource.token("atlas", "transfer:submit")).contentType(ContentType.JSON).body(SE)
                .put("/endpoints/RAL-ECHO").then().statusCode(403).contentType(PROBLEM);
        String admin = FerryTestResource.token(null, "transfer:admin");
        given().auth().oauth2(admin).get("/endpoints/RAL-ECHO").then().statusCode(404).contentType(PROBLEM);
        given().auth().oauth2(admin).contentType(ContentType.JSON).body(SE).put("/endpoints/RAL-ECHO").then().statusCode(201)
                .body("baseUrls.https", equalTo("https://echo.ral.example:1094/atlas"));
        given().auth().oauth2(admin).contentType(ContentType.JSON).body(SE).put("/endpoints/RAL-ECHO").then().statusCode(200);
        given().auth().oauth2(FerryTestResource.token("cms", "transfer:submit")).get("/endpoints")
                .then().statusCode(200).body("name", hasItem("RAL-ECHO"));
    }

    @Test
    void aBaseUrlAnotherSeHasIsRefusedHoweverItIsSpelled() {
        String admin = FerryTestResource.token(null, "transfer:admin");
        String old = "{\"site\":\"OLD-SITE\",\"baseUrls\":{\"https\":\"https://shared.example/data\",\"file\":\"file:///data/shared\"},"
                + "\"access\":{\"open\":true}}";
        given().auth().oauth2(admin).contentType(ContentType.JSON).body(old).put("/endpoints/SHARED-OLD").then().statusCode(anyOf(equalTo(200), equalTo(201)));
        // the same SE again with its own URLs is no conflict
        given().auth().oauth2(admin).contentType(ContentType.JSON).body(old).put("/endpoints/SHARED-OLD").then().statusCode(200);
        for (String same : List.of("https://shared.example/data", "https://SHARED.example:443/data/", "https://shared.example/data//",
                "https://shared.example/%64ata")) {
            given().auth().oauth2(admin).contentType(ContentType.JSON)
                    .body("{\"site\":\"ATLAS-SITE\",\"baseUrls\":{\"https\":\"" + same + "\"},"
                            + "\"access\":{\"rules\":[{\"vo\":\"atlas\",\"read\":true,\"write\":true}]}}")
                    .put("/endpoints/SHARED-ATLAS").then().statusCode(409).contentType(PROBLEM).body("code", equalTo("BASE_URL_TAKEN"))
                    .body("errors.field", hasItem("baseUrls.https")).body("detail", containsString("SHARED-OLD"));
        }
        given().auth().oauth2(admin).contentType(ContentType.JSON)
                .body("{\"site\":\"ATLAS-SITE\",\"baseUrls\":{\"https\":\"https://other.example/data\",\"file\":\"file:///data//shared/\"}}")
                .put("/endpoints/SHARED-ATLAS").then().statusCode(409).body("errors.field", hasItem("baseUrls.file"));
        given().auth().oauth2(admin).get("/endpoints/SHARED-ATLAS").then().statusCode(404);
        // an existing SE may not move onto another's base either, and keeps what it had
        given().auth().oauth2(admin).contentType(ContentType.JSON)
                .body("{\"site\":\"ATLAS-SITE\",\"baseUrls\":{\"https\":\"https://shared.example/data/atlas\"}}")
                .put("/endpoints/SHARED-ATLAS").then().statusCode(201);
        given().auth().oauth2(admin).contentType(ContentType.JSON)
                .body("{\"site\":\"ATLAS-SITE\",\"baseUrls\":{\"https\":\"https://shared.example:443/data\"}}")
                .put("/endpoints/SHARED-ATLAS").then().statusCode(409).body("code", equalTo("BASE_URL_TAKEN"));
        given().auth().oauth2(admin).get("/endpoints/SHARED-ATLAS").then().statusCode(200)
                .body("baseUrls.https", equalTo("https://shared.example/data/atlas"));
        given().auth().oauth2(admin).delete("/endpoints/SHARED-ATLAS").then().statusCode(anyOf(equalTo(200), equalTo(204)));
        given().auth().oauth2(admin).delete("/endpoints/SHARED-OLD").then().statusCode(anyOf(equalTo(200), equalTo(204)));
    }

    @Test
    void badBaseUrlsAreRefusedWithTheirField() {
        String admin = FerryTestResource.token(null, "transfer:admin");
        given().auth().oauth2(admin).contentType(ContentType.JSON)
                .body("{\"site\":\"CERN-PROD\",\"baseUrls\":{\"https\":\"http://eos.example/x\",\"file\":\"file:relative\"}}")
                .put("/endpoints/CERN-EOS").then().statusCode(400).contentType(PROBLEM)
                .body("errors.field", hasItem("baseUrls.https")).body("errors.field", hasItem("baseUrls.file"));
        given().auth().oauth2(admin).contentType(ContentType.JSON)
                .body("{\"site\":\"CERN-PROD\",\"baseUrls\":{\"ftp\":\"ftp://eos.example/x\"}}")
                .put("/endpoints/CERN-EOS").then().statusCode(400).contentType(PROBLEM);
        given().auth().oauth2(admin).get("/endpoints/CERN-EOS").then().statusCode(404);
    }

    @Test
    void linksRunOnConfiguredStreamsOrAdviceOrOneStream() {
        String admin = FerryTestResource.token(null, "transfer:admin");
        given().auth().oauth2(admin).get("/links/NOPE-A/NOPE-B").then().statusCode(422).contentType(PROBLEM)
                .body("code", equalTo("UNKNOWN_SE"));
        for (String se : new String[]{"LINK-A", "LINK-B"}) {
            given().auth().oauth2(admin).contentType(ContentType.JSON)
                    .body("{\"site\":\"S\",\"baseUrls\":{\"https\":\"https://" + se.toLowerCase() + ".example/data\"}}")
                    .put("/endpoints/" + se).then().statusCode(Matchers.anyOf(equalTo(200), equalTo(201)));
        }
        // tcp-profiles is not running here: the link gets one stream and says why.
        given().auth().oauth2(admin).get("/links/LINK-A/LINK-B").then().statusCode(200)
                .body("max_active", equalTo(60)).body("streams.streams", equalTo(1)).body("streams.basis", equalTo("fallback"));
        given().auth().oauth2(admin).contentType(ContentType.JSON).body("{\"max_active\":20,\"nostreams\":4}")
                .put("/links/LINK-A/LINK-B").then().statusCode(200)
                .body("max_active", equalTo(20)).body("streams.streams", equalTo(4)).body("streams.basis", equalTo("link config"));
        given().auth().oauth2(admin).contentType(ContentType.JSON).body("{\"min_active\":50}")
                .put("/links/LINK-A/LINK-B").then().statusCode(400).body("errors.field", hasItem("min_active"));
        given().auth().oauth2(admin).contentType(ContentType.JSON).body("{\"nostreams\":40}")
                .put("/links/LINK-A/LINK-B").then().statusCode(400);
        given().auth().oauth2(FerryTestResource.token("atlas", "transfer:submit")).contentType(ContentType.JSON).body("{}")
                .put("/links/LINK-A/LINK-B").then().statusCode(403);
    }

    @Test
    void aLinksMaxRateIsAWholeNumberOfBytesOrAStringWithAUnitAndNothingElse() {
        String admin = FerryTestResource.token(null, "transfer:admin");
        for (String se : new String[]{"RATE-A", "RATE-B"}) {
            given().auth().oauth2(admin).contentType(ContentType.JSON)
                    .body("{\"site\":\"S\",\"baseUrls\":{\"https\":\"https://" + se.toLowerCase() + ".example/data\"}}")
                    .put("/endpoints/" + se).then().statusCode(anyOf(equalTo(200), equalTo(201)));
        }
        Map<String, Long> accepted = new LinkedHashMap<>();
        accepted.put("4000000", 4_000_000L);
        // JSON Schema's integer: a whole value however it is written
        accepted.put("4000000.0", 4_000_000L);
        accepted.put("1.5e7", 15_000_000L);
        accepted.put("100000", MaxRate.MIN);
        accepted.put("100000000000", MaxRate.MAX);
        accepted.put("\"50MB/s\"", 50_000_000L);
        accepted.put("\" 1 gbit / s\\t\"", 125_000_000L);
        accepted.put("\"4000000\"", 4_000_000L);
        for (Map.Entry<String, Long> rate : accepted.entrySet()) {
            Number stored = given().auth().oauth2(admin).contentType(ContentType.JSON).body("{\"max_rate\":" + rate.getKey() + "}")
                    .put("/links/RATE-A/RATE-B").then().statusCode(200).extract().path("max_rate");
            assertEquals(rate.getValue(), stored.longValue(), rate.getKey());
        }
        // a String field would take a number or a boolean as its text: JSON of any other type or form is refused
        for (String wrong : List.of("true", "false", "[4000000]", "[\"50MB/s\"]", "{}", "{\"bytes\":4000000}", "4000000.5", "1e12",
                "99999", "100000000001", "-4000000", "\"99KB/s\"", "\"101GB/s\"", "\"fast\"", "\"\"", "\"50MB/S\"", "\"\\u00a050MB/s\"")) {
            given().auth().oauth2(admin).contentType(ContentType.JSON).body("{\"max_rate\":" + wrong + "}")
                    .put("/links/RATE-A/RATE-B").then().statusCode(400).contentType(PROBLEM).body("errors.field", hasItem("max_rate"));
        }
        given().auth().oauth2(admin).get("/links/RATE-A/RATE-B").then().statusCode(200).body("max_rate", equalTo(4_000_000));
        given().auth().oauth2(admin).contentType(ContentType.JSON).body("{\"max_rate\":null}")
                .put("/links/RATE-A/RATE-B").then().statusCode(200).body("max_rate", nullValue());
        given().auth().oauth2(admin).contentType(ContentType.JSON).body("{\"max_rate\":\"1MiB/s\"}").put("/links/RATE-A/RATE-B").then().statusCode(200);
        given().auth().oauth2(admin).contentType(ContentType.JSON).body("{}")
                .put("/links/RATE-A/RATE-B").then().statusCode(200).body("max_rate", nullValue());
    }

    @Test
    void theDocumentStatesALinksMaxRateAsTheServerReadsIt() throws Exception {
        JsonNode rate = new ObjectMapper().readTree(given().get("/q/openapi?format=json").then().statusCode(200).extract().asByteArray())
                .at("/components/schemas/LinkInput/properties/max_rate");
        // a type beside oneOf would allow only what both allow
        assertFalse(rate.has("type"), rate.toString());
        assertEquals(List.of("integer", "string", "null"), rate.get("oneOf").findValuesAsText("type"), rate.toString());
        assertEquals(MaxRate.MIN, rate.at("/oneOf/0/minimum").asLong(), rate.toString());
        assertEquals(MaxRate.MAX, rate.at("/oneOf/0/maximum").asLong(), rate.toString());
        assertEquals(MaxRate.PATTERN, rate.at("/oneOf/1/pattern").asText(), rate.toString());
    }

    @Test
    void sharesAreWeightsThatOnlyAdministratorsSet() {
        String admin = FerryTestResource.token(null, "transfer:admin");
        given().auth().oauth2(admin).contentType(ContentType.JSON).body("{\"atlas\":3,\"cms\":1}").put("/shares")
                .then().statusCode(200).body("atlas", equalTo(3.0f)).body("cms", equalTo(1.0f));
        given().auth().oauth2(FerryTestResource.token("atlas", "transfer:submit")).contentType(ContentType.JSON).body("{\"atlas\":100}")
                .put("/shares").then().statusCode(403);
        given().auth().oauth2(admin).contentType(ContentType.JSON).body("{\"atlas\":-1}").put("/shares")
                .then().statusCode(400).body("errors.field", hasItem("atlas"));
        given().auth().oauth2(admin).get("/shares").then().statusCode(200).body("atlas", equalTo(3.0f));
        given().auth().oauth2(admin).contentType(ContentType.JSON).body("{\"Production\":4,\"User Subscriptions\":1}")
                .put("/shares/atlas/activities").then().statusCode(200).body("Production", equalTo(4.0f));
        given().auth().oauth2(FerryTestResource.token("cms", "transfer:submit")).get("/shares/atlas/activities")
                .then().statusCode(200).body("'User Subscriptions'", equalTo(1.0f));
    }

    @Test
    void fts3SeConfigMapsOntoTheCatalogueAndKeepsWhatFerryHasNoConceptFor() {
        String admin = FerryTestResource.token(null, "transfer:admin");
        given().auth().oauth2(admin).contentType(ContentType.JSON)
                .body("{\"site\":\"CFG-SITE\",\"baseUrls\":{\"https\":\"https://cfg-se.example:8443/data\"},\"thirdPartyCopy\":true}")
                .put("/endpoints/CFG-SE").then().statusCode(anyOf(equalTo(200), equalTo(201)));
        // FTS3's shape, the storage in FTS3's scheme://host:port form; numeric strings are cast as FTS3 casts them
        given().auth().oauth2(admin).contentType(ContentType.JSON).body("{\"https://cfg-se.example:8443\":{\"se_info\":{"
                        + "\"inbound_max_active\":\"70\",\"outbound_max_active\":30,\"inbound_max_throughput\":120.5,\"ipv6\":true,"
                        + "\"tpc_support\":\"PULL\",\"se_metadata\":\"disk\",\"debug_level\":null},\"operations\":{\"atlas\":{\"staging\":100,\"delete\":5}}}}")
                .post("/config/se").then().statusCode(200)
                .body("'CFG-SE'.se_info.inbound_max_active", equalTo(70)).body("'CFG-SE'.se_info.tpc_support", equalTo("PULL"));
        // Ferry's own view shows the limits it acts on
        given().auth().oauth2(admin).get("/endpoints/CFG-SE").then().statusCode(200)
                .body("inboundMaxActive", equalTo(70)).body("outboundMaxActive", equalTo(30)).body("thirdPartyCopy", equalTo(true));
        given().auth().oauth2(FerryTestResource.token("atlas", "transfer:submit")).queryParam("se", "CFG-SE").get("/config/se")
                .then().statusCode(200).body("size()", equalTo(1))
                .body("'CFG-SE'.se_info.site", equalTo("CFG-SITE")).body("'CFG-SE'.se_info.outbound_max_active", equalTo(30))
                .body("'CFG-SE'.se_info.inbound_max_throughput", equalTo(120.5f)).body("'CFG-SE'.se_info.ipv6", equalTo(1))
                .body("'CFG-SE'.se_info.se_metadata", equalTo("disk")).body("'CFG-SE'.se_info.containsKey('udt')", equalTo(true))
                .body("'CFG-SE'.operations.atlas.staging", equalTo(100));
        // a 0 limit removes an operation limit; tpc NONE is Ferry's "no third-party copy"
        given().auth().oauth2(admin).contentType(ContentType.JSON)
                .body("{\"CFG-SE\":{\"se_info\":{\"tpc_support\":\"NONE\"},\"operations\":{\"atlas\":{\"delete\":0}}}}")
                .post("/config/se").then().statusCode(200).body("'CFG-SE'.operations.atlas.containsKey('delete')", equalTo(false))
                .body("'CFG-SE'.se_info.inbound_max_active", equalTo(70));
        given().auth().oauth2(admin).get("/endpoints/CFG-SE").then().body("thirdPartyCopy", equalTo(false));
        // bad bodies: 400, nothing stored (the valid storage beside the bad one is not applied either)
        for (String bad : new String[]{"[]", "{}", "{\"CFG-SE\":7}", "{\"CFG-SE\":{\"se_info\":{\"colour\":\"red\"}}}",
                "{\"CFG-SE\":{\"se_info\":{\"inbound_max_active\":\"many\"}}}", "{\"CFG-SE\":{\"se_info\":{\"tpc_support\":\"SOME\"}}}",
                "{\"CFG-SE\":{\"se_info\":{\"outbound_max_active\":1}},\"https://cfg-se.example:8443\":{\"se_info\":{\"inbound_max_active\":0}}}",
                "{\"CFG-SE\":{\"operations\":{\"atlas\":{\"staging\":\"lots\"}}}}"}) {
            given().auth().oauth2(admin).contentType(ContentType.JSON).body(bad).post("/config/se").then().statusCode(400).contentType(PROBLEM);
        }
        given().auth().oauth2(admin).contentType(ContentType.JSON).body("{\"NO-SUCH-SE\":{\"se_info\":{\"inbound_max_active\":5}}}")
                .post("/config/se").then().statusCode(422).contentType(PROBLEM).body("code", equalTo("UNKNOWN_SE"));
        given().auth().oauth2(admin).get("/endpoints/CFG-SE").then().body("outboundMaxActive", equalTo(30));
        // writes are for administrators
        given().auth().oauth2(FerryTestResource.token("atlas", "transfer:submit")).contentType(ContentType.JSON)
                .body("{\"CFG-SE\":{\"se_info\":{\"inbound_max_active\":5}}}").post("/config/se").then().statusCode(403);
        // DELETE ?se=: the limits go back to the defaults, FTS3's fields go, the SE stays registered
        given().auth().oauth2(admin).delete("/config/se").then().statusCode(400).contentType(PROBLEM);
        given().auth().oauth2(admin).queryParam("se", "CFG-SE").delete("/config/se").then().statusCode(204);
        given().auth().oauth2(admin).queryParam("se", "CFG-SE").get("/config/se").then().statusCode(200)
                .body("'CFG-SE'.se_info.inbound_max_active", equalTo(50)).body("'CFG-SE'.se_info.ipv6", nullValue())
                .body("'CFG-SE'.containsKey('operations')", equalTo(false));
    }

    @Test
    void fts3LinkSharesAreKeptAndListed() {
        String admin = FerryTestResource.token(null, "transfer:admin");
        given().auth().oauth2(admin).contentType(ContentType.JSON)
                .body("{\"source\":\"gsiftp://Source.example/path\",\"destination\":\"https://dest.example:443\",\"vo\":\"atlas\",\"share\":\"40\"}")
                .post("/config/shares").then().statusCode(200).body(equalTo("40"));
        given().auth().oauth2(FerryTestResource.token("cms", "transfer:submit")).get("/config/shares").then().statusCode(200)
                .body("find { it.vo == 'atlas' }.source", equalTo("gsiftp://source.example"))
                .body("find { it.vo == 'atlas' }.destination", equalTo("https://dest.example"))
                .body("find { it.vo == 'atlas' }.share", equalTo(40));
        for (String bad : new String[]{"{\"source\":\"gsiftp://a\",\"destination\":\"https://b\",\"vo\":\"atlas\",\"share\":-1}",
                "{\"source\":\"gsiftp://a\",\"destination\":\"https://b\",\"vo\":\"atlas\",\"share\":\"half\"}",
                "{\"source\":\"gsiftp://a\",\"destination\":\"https://b\",\"vo\":\"atlas\",\"share\":0}",
                "{\"source\":\"not a url\",\"destination\":\"https://b\",\"vo\":\"atlas\",\"share\":3}",
                "{\"destination\":\"https://b\",\"vo\":\"atlas\",\"share\":3}", "[1]"}) {
            given().auth().oauth2(admin).contentType(ContentType.JSON).body(bad).post("/config/shares").then().statusCode(400).contentType(PROBLEM);
        }
        given().auth().oauth2(FerryTestResource.token("atlas", "transfer:submit")).contentType(ContentType.JSON)
                .body("{\"source\":\"gsiftp://a\",\"destination\":\"https://b\",\"vo\":\"atlas\",\"share\":3}").post("/config/shares").then().statusCode(403);
        given().auth().oauth2(admin).queryParam("source", "gsiftp://source.example").queryParam("vo", "atlas").delete("/config/shares")
                .then().statusCode(400).contentType(PROBLEM);
        given().auth().oauth2(admin).queryParam("source", "gsiftp://source.example").queryParam("destination", "https://dest.example")
                .queryParam("vo", "atlas").delete("/config/shares").then().statusCode(204);
        given().auth().oauth2(admin).get("/config/shares").then().statusCode(200).body("findAll { it.vo == 'atlas' }.size()", equalTo(0));
    }

    @Test
    void fts3ActivitySharesAreTheVosActivityWeights() {
        String admin = FerryTestResource.token(null, "transfer:admin");
        given().auth().oauth2(admin).contentType(ContentType.JSON)
                .body("{\"vo\":\"lhcb\",\"share\":[{\"Data Brokering\":3},{\"User Subscriptions\":1}],\"active\":false}")
                .post("/config/activity_shares").then().statusCode(200).body("vo", equalTo("lhcb"))
                .body("activity_share[0].'Data Brokering'", equalTo(3.0f)).body("active", equalTo(false));
        // the same weights, Ferry's view
        given().auth().oauth2(admin).get("/shares/lhcb/activities").then().statusCode(200).body("'Data Brokering'", equalTo(3.0f));
        given().auth().oauth2(FerryTestResource.token("cms", "transfer:submit")).get("/config/activity_shares").then().statusCode(200)
                .body("lhcb.share.'User Subscriptions'", equalTo(1.0f)).body("lhcb.active", equalTo(false));
        given().auth().oauth2(admin).contentType(ContentType.JSON).body("{\"vo\":\"lhcb\",\"share\":{\"Express\":2}}")
                .post("/config/activity_shares").then().statusCode(200).body("active", equalTo(true));
        given().auth().oauth2(admin).get("/config/activity_shares/lhcb").then().statusCode(200)
                .body("share.Express", equalTo(2.0f)).body("share.size()", equalTo(1)).body("active", equalTo(true));
        for (String bad : new String[]{"{\"share\":{\"A\":1}}", "{\"vo\":\"lhcb\"}", "{\"vo\":\"lhcb\",\"share\":{\"A\":\"heavy\"}}",
                "{\"vo\":\"lhcb\",\"share\":{\"A\":-2}}", "{\"vo\":\"lhcb\",\"share\":[{\"A\":1,\"B\":2}]}", "{\"vo\":\"lhcb\",\"share\":{\"A\":1},\"active\":\"maybe\"}"}) {
            given().auth().oauth2(admin).contentType(ContentType.JSON).body(bad).post("/config/activity_shares").then().statusCode(400)
                    .contentType(PROBLEM);
        }
        given().auth().oauth2(admin).get("/config/activity_shares/lhcb").then().body("share.Express", equalTo(2.0f));
        given().auth().oauth2(FerryTestResource.token("lhcb", "transfer:submit")).delete("/config/activity_shares/lhcb").then().statusCode(403);
        given().auth().oauth2(admin).delete("/config/activity_shares/lhcb").then().statusCode(204);
        given().auth().oauth2(admin).delete("/config/activity_shares/lhcb").then().statusCode(404).contentType(PROBLEM);
        given().auth().oauth2(admin).get("/config/activity_shares/lhcb").then().statusCode(404).contentType(PROBLEM);
    }

    @Test
    void fts3LinksAreNamedLinksBetweenRegisteredSes() {
        String admin = FerryTestResource.token(null, "transfer:admin");
        for (String se : new String[]{"FLINK-A", "FLINK-B"}) {
            given().auth().oauth2(admin).contentType(ContentType.JSON)
                    .body("{\"site\":\"S\",\"baseUrls\":{\"https\":\"https://" + se.toLowerCase() + ".example/data\"}}")
                    .put("/endpoints/" + se).then().statusCode(anyOf(equalTo(200), equalTo(201)));
        }
        given().auth().oauth2(admin).contentType(ContentType.JSON).body("{\"symbolicname\":\"a-to-b\",\"source\":\"https://flink-a.example\","
                        + "\"destination\":\"FLINK-B\",\"min_active\":3,\"max_active\":12,\"nostreams\":2,\"tcp_buffer_size\":0,\"no_delegation\":\"on\"}")
                .post("/config/links").then().statusCode(201).body("source", equalTo("FLINK-A")).body("destination", equalTo("FLINK-B"))
                .body("max_active", equalTo(12)).body("no_delegation", equalTo("on"));
        // Ferry's own view of the same link
        given().auth().oauth2(admin).get("/links/FLINK-A/FLINK-B").then().statusCode(200)
                .body("min_active", equalTo(3)).body("max_active", equalTo(12)).body("streams.streams", equalTo(2));
        given().auth().oauth2(FerryTestResource.token("atlas", "transfer:submit")).get("/config/links/a-to-b").then().statusCode(200)
                .body("symbolicname", equalTo("a-to-b")).body("optimizer_mode", equalTo("adaptive"));
        given().auth().oauth2(admin).get("/config/links").then().statusCode(200).body("symbolicname", hasItem("a-to-b"));
        for (String bad : new String[]{"{\"source\":\"FLINK-A\",\"destination\":\"FLINK-B\"}",
                "{\"symbolicname\":\"x\",\"source\":\"FLINK-A\",\"destination\":\"FLINK-B\",\"min_active\":5,\"max_active\":4}",
                "{\"symbolicname\":\"x\",\"source\":\"FLINK-A\",\"destination\":\"FLINK-B\",\"max_active\":\"many\"}",
                "{\"symbolicname\":\"x\",\"source\":\"FLINK-A\",\"destination\":\"FLINK-B\",\"colour\":1}"}) {
            given().auth().oauth2(admin).contentType(ContentType.JSON).body(bad).post("/config/links").then().statusCode(400).contentType(PROBLEM);
        }
        given().auth().oauth2(admin).contentType(ContentType.JSON).body("{\"symbolicname\":\"defaults\"}").post("/config/links")
                .then().statusCode(422).body("code", equalTo("WILDCARD_LINK"));
        given().auth().oauth2(admin).contentType(ContentType.JSON).body("{\"symbolicname\":\"a-to-b\",\"source\":\"FLINK-B\",\"destination\":\"FLINK-A\"}")
                .post("/config/links").then().statusCode(409).contentType(PROBLEM);
        given().auth().oauth2(admin).get("/links/FLINK-B/FLINK-A").then().statusCode(200).body("updated_by", equalTo("default"));
        given().auth().oauth2(admin).delete("/config/links/a-to-b").then().statusCode(204);
        given().auth().oauth2(admin).get("/config/links/a-to-b").then().statusCode(404).contentType(PROBLEM);
        given().auth().oauth2(admin).get("/links/FLINK-A/FLINK-B").then().statusCode(200).body("max_active", equalTo(60));
    }

    @Test
    void fts3OptimizerAnswersWhetherItRuns() {
        given().auth().oauth2(FerryTestResource.token("atlas", "transfer:submit")).get("/optimizer").then().statusCode(200).body(equalTo("true"));
        given().auth().oauth2(FerryTestResource.token("atlas", "transfer:submit")).get("/optimizer/decisions").then().statusCode(200);
    }
}
