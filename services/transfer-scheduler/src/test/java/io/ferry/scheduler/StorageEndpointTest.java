package io.ferry.scheduler;

import io.ferry.dev.DevTokens;
import io.ferry.dev.FerryTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static io.restassured.RestAssured.given;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.startsWith;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

/** The SE catalogue and FTS3 discovery, with the platform's auth and error behaviour. */
@QuarkusTest
@QuarkusTestResource(FerryTestResource.class)
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
                    .put("/endpoints/" + se).then().statusCode(org.hamcrest.Matchers.anyOf(equalTo(200), equalTo(201)));
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
}
