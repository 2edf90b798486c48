package io.ferry.rates;

import io.ferry.dev.FerryTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import static io.ferry.rates.RatesQueriesTest.MB;
import static io.ferry.rates.RatesQueriesTest.done;
import static io.ferry.rates.RatesQueriesTest.ingest;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.closeTo;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ALTO face (RFC 7285) over the cost matrix, fed through {@code POST /records}. SEs named PID1..PID3 let the RFC's
 * own example requests run unchanged. Costs are for the reference size of 1 GB: overhead + 1e9 / throughput.
 */
@QuarkusTest
@WithTestResource(FerryTestResource.class)
class AltoMapsTest {

    static final String NETWORK_MAP = "application/alto-networkmap+json";
    static final String COST_MAP = "application/alto-costmap+json";
    static final String FILTER = "application/alto-costmapfilter+json";
    static final String ERROR = "application/alto-error+json";
    static final String DOTTED_SE = "ALTO-se.example.org:443";
    /** 91 characters: its PID is cut and hashed (its site, named SE + "-SITE", stays within 100). */
    static final String LONG_SE = "ALTO-" + "long.storage.element.".repeat(4) + "eu";

    static {
        // As in RatesQueriesTest: JSON decimals as doubles (set before Quarkus sets rest-assured up for the class).
        io.restassured.RestAssured.config = io.restassured.RestAssured.config().jsonConfig(io.restassured.config.JsonConfig.jsonConfig()
                .numberReturnType(io.restassured.path.json.config.JsonPathConfig.NumberReturnType.DOUBLE));
    }

    /** The request of RFC 7285 §11.3.2.7, as printed there. */
    static final String RFC_FILTER_EXAMPLE = """
            {
              "cost-type" : {"cost-mode" : "numerical",
                             "cost-metric" : "routingcost"
              },
              "pids" : {
                "srcs" : [ "PID1" ],
                "dsts" : [ "PID1", "PID2", "PID3" ]
              }
            }
            """;

    static boolean fed;

    /** Called by each test (not {@code @BeforeAll}, which runs before rest-assured knows the port). */
    static synchronized void feed() {
        if (fed) {
            return;
        }
        fed = true;
        Instant end = Instant.now().minus(1, ChronoUnit.DAYS);
        List<String> rs = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            // PID1 -> PID2: 100 MB in 10 s after 20 s prepare: 10 MB/s, 20 s overhead, 1 GB in 120 s.
            rs.add(done("alto-12-" + i, "PID1", "PID2", 100 * MB, end.plusSeconds(60L * i), 10, 20));
            // PID1 -> PID3: 100 MB in 5 s after 10 s: 20 MB/s, 10 s, 1 GB in 60 s.
            rs.add(done("alto-13-" + i, "PID1", "PID3", 100 * MB, end.plusSeconds(60L * i), 5, 10));
            // PID1 -> PID1: 100 MB in 1 s, no prepare: 100 MB/s, 1 GB in 10 s.
            rs.add(done("alto-11-" + i, "PID1", "PID1", 100 * MB, end.plusSeconds(60L * i), 1, 0));
            rs.add(done("alto-dot-" + i, DOTTED_SE, LONG_SE, 100 * MB, end.plusSeconds(60L * i), 10, 0));
        }
        // PID2 -> PID1: two transfers are too few (ferry.rates.cost.min-samples = 3) and nothing is measured: no cost.
        rs.add(done("alto-21-0", "PID2", "PID1", 100 * MB, end, 10, 0));
        rs.add(done("alto-21-1", "PID2", "PID1", 100 * MB, end.plusSeconds(60), 10, 0));
        ingest(rs);
        // PID3 -> PID1 is measured only: 80 Mbit/s = 10 MB/s with the default overhead of 30 s: 130 s.
        given().auth().oauth2(RatesQueriesTest.writer()).contentType("application/json")
                .body("[{\"source\":\"PID3\",\"destination\":\"PID1\",\"tool\":\"iperf3\",\"time\":\"" + end
                        + "\",\"throughput_bps\":80000000}]")
                .post("/measurements").then().statusCode(200);
    }

    static Response networkMap() {
        return given().accept(NETWORK_MAP + "," + ERROR).get("/alto/networkmap");
    }

    static Response filtered(String body) {
        return given().contentType(FILTER).accept(COST_MAP + "," + ERROR).body(body).post("/alto/costmap/filtered");
    }

    @Test
    void directoryListsEveryResourceAtAUriThatAnswersItsMediaType() {
        feed();
        JsonPath ird = given().accept("application/alto-directory+json,application/alto-error+json").get("/alto")
                .then().statusCode(200).contentType("application/alto-directory+json")
                .body("meta.default-alto-network-map", equalTo("ferry-network-map"))
                .body("meta.cost-types.num-routingcost.cost-mode", equalTo("numerical"))
                .body("meta.cost-types.num-routingcost.cost-metric", equalTo("routingcost"))
                .body("meta.cost-types.num-throughput.cost-metric", equalTo("priv:ferry-throughput"))
                .body("resources.ferry-routingcost-map.capabilities.cost-type-names", equalTo(List.of("num-routingcost")))
                .body("resources.ferry-routingcost-map.uses", equalTo(List.of("ferry-network-map")))
                .body("resources.ferry-filtered-cost-map.accepts", equalTo(FILTER))
                .body("resources.ferry-filtered-cost-map.capabilities.cost-constraints", equalTo(true))
                .body("resources.ferry-filtered-cost-map.capabilities.cost-type-names",
                        equalTo(List.of("num-routingcost", "num-throughput")))
                .body("resources.ferry-filtered-cost-map.uses", equalTo(List.of("ferry-network-map")))
                .extract().jsonPath();
        Map<String, Map<String, Object>> resources = ird.getMap("resources");
        assertEquals(4, resources.size(), resources.toString());
        for (Map.Entry<String, Map<String, Object>> r : resources.entrySet()) {
            String uri = (String) r.getValue().get("uri");
            String type = (String) r.getValue().get("media-type");
            Response answer = r.getValue().containsKey("accepts")
                    ? given().contentType((String) r.getValue().get("accepts")).accept(type + "," + ERROR)
                    .body("{\"cost-type\":{\"cost-mode\":\"numerical\",\"cost-metric\":\"routingcost\"}}").post(uri)
                    : given().accept(type + "," + ERROR).get(uri);
            answer.then().statusCode(200).contentType(type);
            if (!r.getKey().equals("ferry-network-map")) {
                answer.then().body("meta.dependent-vtags[0].resource-id", equalTo("ferry-network-map"));
            }
        }
    }

    /** RFC 7285 §11.2.1.7's exchange: the same request, an answer of the same shape. */
    @Test
    void networkMapHasOnePidPerSeNamedByTheDocumentedMapping() throws Exception {
        feed();
        String longPid = LONG_SE.replace('.', '@').substring(0, 47) + "@"
                + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(LONG_SE.getBytes(StandardCharsets.UTF_8))).substring(0, 16);
        JsonPath map = networkMap().then().statusCode(200).contentType(NETWORK_MAP)
                .body("meta.vtag.resource-id", equalTo("ferry-network-map"))
                .body("meta.vtag.tag", matchesPattern("[\\x21-\\x7e]{1,64}"))
                .body("network-map", hasKey("PID1")).body("network-map", hasKey("PID2")).body("network-map", hasKey("PID3"))
                .body("network-map", hasKey("ALTO-se@example@org:443"))
                .body("network-map", hasKey(longPid))
                .extract().jsonPath();
        assertEquals(64, longPid.length());
        Map<String, Object> pids = map.getMap("network-map");
        for (Map.Entry<String, Object> pid : pids.entrySet()) {
            assertTrue(pid.getKey().matches("[A-Za-z0-9:@_-]{1,64}"), "not a PID name without the reserved '.': " + pid.getKey());
            // Records carry no addresses: no group claims any (docs/alto.md).
            assertEquals(Map.of(), pid.getValue(), pid.getKey());
        }
    }

    /** RFC 7285 §11.2.3.7's exchange: the same request, an answer of the same shape; values from the records. */
    @Test
    void costMapsPriceMeasuredLinksAndLeaveTheRestOut() {
        feed();
        String tag = networkMap().then().extract().path("meta.vtag.tag");
        given().accept(COST_MAP + "," + ERROR).get("/alto/costmap/num/routingcost").then().statusCode(200).contentType(COST_MAP)
                .body("meta.dependent-vtags.size()", equalTo(1))
                .body("meta.dependent-vtags[0].resource-id", equalTo("ferry-network-map"))
                .body("meta.dependent-vtags[0].tag", equalTo(tag))
                .body("meta.cost-type.cost-mode", equalTo("numerical"))
                .body("meta.cost-type.cost-metric", equalTo("routingcost"))
                .body("cost-map.PID1.PID2", closeTo(120.0, 1e-6))
                .body("cost-map.PID1.PID3", closeTo(60.0, 1e-6))
                .body("cost-map.PID1.PID1", closeTo(10.0, 1e-6))
                .body("cost-map.PID3.PID1", closeTo(130.0, 1e-6))
                .body("cost-map", not(hasKey("PID2")))
                .body("cost-map", hasKey("ALTO-se@example@org:443"));
        given().get("/alto/costmap/num/throughput").then().statusCode(200).contentType(COST_MAP)
                .body("meta.cost-type.cost-metric", equalTo("priv:ferry-throughput"))
                .body("meta.dependent-vtags[0].tag", equalTo(tag))
                .body("cost-map.PID1.PID2", closeTo(10_000_000.0, 1e-3))
                .body("cost-map.PID1.PID3", closeTo(20_000_000.0, 1e-3))
                .body("cost-map.PID3.PID1", closeTo(10_000_000.0, 1e-3));
        given().get("/alto/costmap/num/hopcount").then().statusCode(404);
    }

    /** RFC 7285 §11.3.2.7's request, byte for byte, and an answer of the example's shape. */
    @Test
    void filteredCostMapTakesTheRfcExampleAndFiltersByPidsAndConstraints() {
        feed();
        String tag = networkMap().then().extract().path("meta.vtag.tag");
        JsonPath answer = filtered(RFC_FILTER_EXAMPLE).then().statusCode(200).contentType(COST_MAP)
                .body("meta.dependent-vtags[0].resource-id", equalTo("ferry-network-map"))
                .body("meta.dependent-vtags[0].tag", equalTo(tag))
                .body("meta.cost-type.cost-mode", equalTo("numerical"))
                .body("meta.cost-type.cost-metric", equalTo("routingcost"))
                .body("cost-map.PID1.PID1", closeTo(10.0, 1e-6))
                .body("cost-map.PID1.PID2", closeTo(120.0, 1e-6))
                .body("cost-map.PID1.PID3", closeTo(60.0, 1e-6))
                .extract().jsonPath();
        assertEquals(List.of("PID1"), List.copyOf(answer.getMap("cost-map").keySet()));
        assertEquals(3, answer.getMap("cost-map.PID1").size());

        // A PID the map does not define is left out (RFC 7285 §11.3.2); listed twice, a PID counts once.
        filtered("{\"cost-type\":{\"cost-mode\":\"numerical\",\"cost-metric\":\"routingcost\"},"
                + "\"pids\":{\"srcs\":[\"PID1\",\"PID1\",\"NOPE\"],\"dsts\":[\"PID2\",\"NOPE\"]}}")
                .then().statusCode(200).body("cost-map.size()", equalTo(1)).body("cost-map.PID1.size()", equalTo(1))
                .body("cost-map.PID1.PID2", closeTo(120.0, 1e-6));
        // Empty lists are every PID.
        filtered("{\"cost-type\":{\"cost-mode\":\"numerical\",\"cost-metric\":\"routingcost\"},\"pids\":{\"srcs\":[],\"dsts\":[\"PID1\"]}}")
                .then().statusCode(200).body("cost-map.PID1.PID1", closeTo(10.0, 1e-6))
                .body("cost-map.PID3.PID1", closeTo(130.0, 1e-6)).body("cost-map", not(hasKey("PID2")));
        // Constraints are ANDed and in the metric's unit.
        filtered("{\"cost-type\":{\"cost-mode\":\"numerical\",\"cost-metric\":\"routingcost\"},"
                + "\"constraints\":[\"ge 60\",\"lt 1.2e2\"],\"pids\":{\"srcs\":[\"PID1\"],\"dsts\":[]}}")
                .then().statusCode(200).body("cost-map.PID1.size()", equalTo(1)).body("cost-map.PID1.PID3", closeTo(60.0, 1e-6));
        filtered("{\"cost-type\":{\"cost-mode\":\"numerical\",\"cost-metric\":\"priv:ferry-throughput\"},"
                + "\"constraints\":[\"gt 15000000\"],\"pids\":{\"srcs\":[\"PID1\"],\"dsts\":[\"PID2\",\"PID3\"]}}")
                .then().statusCode(200).body("meta.cost-type.cost-metric", equalTo("priv:ferry-throughput"))
                .body("cost-map.PID1.size()", equalTo(1)).body("cost-map.PID1.PID3", closeTo(20_000_000.0, 1e-3));
        filtered("{\"cost-type\":{\"cost-mode\":\"numerical\",\"cost-metric\":\"routingcost\"},\"pids\":{\"srcs\":[\"NOPE\"],\"dsts\":[]}}")
                .then().statusCode(200).body("cost-map.size()", equalTo(0));
    }

    @Test
    void theNetworkMapVersionChangesWhenNewSesAppearAndOnlyThen() {
        feed();
        String before = networkMap().then().extract().path("meta.vtag.tag");
        assertEquals(before, networkMap().then().extract().path("meta.vtag.tag"), "the same SEs, the same vtag");
        ingest(List.of(done("alto-new-0", "ALTO-NEW-A", "ALTO-NEW-B", 100 * MB, Instant.now().minusSeconds(600), 10, 0)));
        String after = networkMap().then().statusCode(200).body("network-map", hasKey("ALTO-NEW-A"))
                .body("network-map", hasKey("ALTO-NEW-B")).extract().path("meta.vtag.tag");
        assertNotEquals(before, after);
        given().get("/alto/costmap/num/routingcost").then().body("meta.dependent-vtags[0].tag", equalTo(after));
        filtered(RFC_FILTER_EXAMPLE).then().body("meta.dependent-vtags[0].tag", equalTo(after));
        // A new link between known SEs is no new SE: the map stays as it was.
        ingest(List.of(done("alto-new-1", "ALTO-NEW-B", "ALTO-NEW-A", 100 * MB, Instant.now().minusSeconds(600), 10, 0)));
        assertEquals(after, networkMap().then().extract().path("meta.vtag.tag"));
    }
}
