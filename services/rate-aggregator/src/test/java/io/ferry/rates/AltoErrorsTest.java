package io.ferry.rates;

import io.ferry.dev.FerryTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Faults in ALTO requests are RFC 7285 §8.5 error documents, each naming its code and field; media types are negotiated. */
@QuarkusTest
@WithTestResource(FerryTestResource.class)
class AltoErrorsTest {

    static final String ERROR = "application/alto-error+json";
    static final String ROUTING = "{\"cost-mode\":\"numerical\",\"cost-metric\":\"routingcost\"}";

    @TestHTTPResource("/alto/costmap/filtered")
    URI filteredUri;

    static ValidatableResponse filtered(String body) {
        return given().contentType("application/alto-costmapfilter+json").accept("application/alto-costmap+json," + ERROR)
                .body(body).post("/alto/costmap/filtered").then();
    }

    static void refused(String body, String code, String field, String value) {
        filtered(body).statusCode(400).contentType(ERROR).body("meta.code", equalTo(code))
                .body("meta.field", field == null ? nullValue() : equalTo(field))
                .body("meta.value", value == null ? nullValue() : equalTo(value));
    }

    @Test
    void malformedBodiesAreSyntaxErrorsWithTheReason() {
        for (String body : new String[]{"{", "{\"cost-type\":" + ROUTING + "} trailing", "[]", "", "{\"cost-type\":" + ROUTING
                + ",\"pids\":{\"srcs\":[\"se/with/slash\"],\"dsts\":[]}}", "{\"cost-type\":" + ROUTING
                + ",\"pids\":{\"srcs\":[\"" + "a".repeat(65) + "\"],\"dsts\":[]}}"}) {
            filtered(body).statusCode(400).contentType(ERROR).body("meta.code", equalTo("E_SYNTAX"))
                    .body("meta.syntax-error", notNullValue());
        }
    }

    @Test
    void eachFieldIsCheckedAndNamed() {
        refused("{}", "E_MISSING_FIELD", "cost-type", null);
        refused("{\"cost-type\":null}", "E_MISSING_FIELD", "cost-type", null);
        refused("{\"cost-type\":\"routingcost\"}", "E_INVALID_FIELD_TYPE", "cost-type", null);
        refused("{\"cost-type\":{\"cost-metric\":\"routingcost\"}}", "E_MISSING_FIELD", "cost-type/cost-mode", null);
        refused("{\"cost-type\":{\"cost-mode\":\"numerical\"}}", "E_MISSING_FIELD", "cost-type/cost-metric", null);
        refused("{\"cost-type\":{\"cost-mode\":1,\"cost-metric\":\"routingcost\"}}", "E_INVALID_FIELD_TYPE", "cost-type/cost-mode", null);
        refused("{\"cost-type\":{\"cost-mode\":\"numerical\",\"cost-metric\":\"hopcount\"}}",
                "E_INVALID_FIELD_VALUE", "cost-type/cost-metric", "hopcount");
        refused("{\"cost-type\":{\"cost-mode\":\"ordinal\",\"cost-metric\":\"routingcost\"}}",
                "E_INVALID_FIELD_VALUE", "cost-type/cost-mode", "ordinal");
        refused("{\"cost-type\":" + ROUTING + ",\"pids\":[]}", "E_INVALID_FIELD_TYPE", "pids", null);
        refused("{\"cost-type\":" + ROUTING + ",\"pids\":{\"srcs\":[]}}", "E_MISSING_FIELD", "pids/dsts", null);
        refused("{\"cost-type\":" + ROUTING + ",\"pids\":{\"dsts\":[]}}", "E_MISSING_FIELD", "pids/srcs", null);
        refused("{\"cost-type\":" + ROUTING + ",\"pids\":{\"srcs\":\"PID1\",\"dsts\":[]}}", "E_INVALID_FIELD_TYPE", "pids/srcs", null);
        refused("{\"cost-type\":" + ROUTING + ",\"pids\":{\"srcs\":[],\"dsts\":[7]}}", "E_INVALID_FIELD_TYPE", "pids/dsts", null);
        refused("{\"cost-type\":" + ROUTING + ",\"constraints\":\"lt 5\"}", "E_INVALID_FIELD_TYPE", "constraints", null);
        for (String constraint : new String[]{"lt", "lt 5 6", "between 5", "lt ten", "lt NaN", "lt 0x10", "lt 1e999", "LT 5"}) {
            refused("{\"cost-type\":" + ROUTING + ",\"constraints\":[\"ge 0\",\"" + constraint + "\"]}",
                    "E_INVALID_FIELD_VALUE", "constraints", constraint);
        }
        // Fields ALTO does not define are ignored (RFC 7285 §8.3.7), and a valid request is answered.
        filtered("{\"cost-type\":" + ROUTING + ",\"constraints\":[\"le 1e3\"],\"x-unknown\":true}").statusCode(200)
                .contentType("application/alto-costmap+json");
    }

    @Test
    void oversizedBodiesAre413WhetherTheirLengthIsDeclaredOrNot() throws Exception {
        // ferry.rates.alto.max-request-bytes (64 KiB): a valid request padded past it.
        String padded = "{\"cost-type\":" + ROUTING + "," + " ".repeat(70_000) + "\"pids\":{\"srcs\":[],\"dsts\":[]}}";
        filtered(padded).statusCode(413).contentType(ERROR).body("meta.code", equalTo("E_SYNTAX"))
                .body("meta.syntax-error", containsString("exceeds the limit of 65536 bytes"));
        // Chunked (no Content-Length): read, then refused by the resource.
        HttpRequest chunked = HttpRequest.newBuilder(filteredUri).header("Content-Type", "application/alto-costmapfilter+json")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(padded.getBytes()))).build();
        HttpResponse<String> answer = HttpClient.newHttpClient().send(chunked, HttpResponse.BodyHandlers.ofString());
        assertEquals(413, answer.statusCode(), answer.body());
        assertEquals(ERROR, answer.headers().firstValue("Content-Type").orElse(""));
        assertTrue(answer.body().contains("exceeds the limit of 65536 bytes"), answer.body());
        // Just below the limit it is taken.
        filtered("{\"cost-type\":" + ROUTING + "," + " ".repeat(60_000) + "\"pids\":{\"srcs\":[],\"dsts\":[]}}").statusCode(200);
    }

    @Test
    void mediaTypesAreNegotiated() {
        given().accept("application/json").get("/alto/networkmap").then().statusCode(406);
        given().accept("application/alto-costmap+json," + ERROR).get("/alto/networkmap").then().statusCode(406);
        given().accept("application/alto-networkmap+json").get("/alto/costmap/num/routingcost").then().statusCode(406);
        given().accept("application/alto-networkmap+json").get("/alto").then().statusCode(406);
        given().accept("application/*").get("/alto/networkmap").then().statusCode(200).contentType("application/alto-networkmap+json");
        given().get("/alto").then().statusCode(200).contentType("application/alto-directory+json");
        // The filter must come as its own media type.
        given().contentType("application/json").body("{\"cost-type\":" + ROUTING + "}").post("/alto/costmap/filtered")
                .then().statusCode(415);
        given().contentType("application/alto-costmapfilter+json").accept("application/alto-networkmap+json")
                .body("{\"cost-type\":" + ROUTING + "}").post("/alto/costmap/filtered").then().statusCode(406);
    }

    /** The OpenAPI document states ALTO's request and error shapes, so that generated clients and checkers expect them. */
    @Test
    void theOpenApiDocumentStatesTheAltoShapes() throws Exception {
        com.fasterxml.jackson.databind.JsonNode doc = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(given().get("/q/openapi?format=json").then().statusCode(200).extract().asByteArray());
        com.fasterxml.jackson.databind.JsonNode post = doc.at("/paths/~1alto~1costmap~1filtered/post");
        assertEquals("#/components/schemas/AltoCostMapFilter",
                post.at("/requestBody/content/application~1alto-costmapfilter+json/schema/$ref").asText(), post.toString());
        for (String status : new String[]{"400", "413"}) {
            assertEquals("#/components/schemas/AltoError", post.at("/responses/" + status + "/content/application~1alto-error+json/schema/$ref").asText(),
                    post.toString());
        }
        com.fasterxml.jackson.databind.JsonNode schemas = doc.at("/components/schemas");
        assertEquals("^[A-Za-z0-9:@_.-]{1,64}$", schemas.at("/AltoPidFilter/properties/srcs/items/pattern").asText(), schemas.toString());
        assertTrue(schemas.at("/AltoErrorMeta/properties").has("syntax-error"), schemas.toString());
        assertTrue(schemas.at("/AltoNetworkMapMeta/properties").has("vtag"), schemas.toString());
    }

    /** ALTO maps are reads: anonymous like the aggregator's other monitoring reads, and the writes stay closed. */
    @Test
    void mapsAreAnonymousReads() {
        given().get("/alto/networkmap").then().statusCode(200);
        filtered("{\"cost-type\":" + ROUTING + "}").statusCode(200);
        given().contentType("application/json").body("[]").post("/records").then().statusCode(401);
    }
}
