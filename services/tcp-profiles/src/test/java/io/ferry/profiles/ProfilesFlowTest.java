package io.ferry.profiles;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.ferry.dev.DevTokens;
import io.ferry.dev.FerryTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** A site admin's day: profiles with versions and includes, rules, rendering, drift, stream advice, impact. */
@QuarkusTest
@WithTestResource(FerryTestResource.class)
class ProfilesFlowTest {

    static final String PROBLEM = "application/problem+json";

    static String admin() {
        return FerryTestResource.token(DevTokens.Claims.of("ops", null, "profiles:write profiles:admin"));
    }

    static String site(String site) {
        return FerryTestResource.token(DevTokens.Claims.of("admin@" + site, null, "profiles:write").withSite(site));
    }

    static String resource(String name) throws Exception {
        try (InputStream in = ProfilesFlowTest.class.getResourceAsStream("/observed/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    static final String BASE = "{\"summary\":\"fq, htcp, MTU probing\",\"sysctls\":{\"net.core.default_qdisc\":\"fq\","
            + "\"net.ipv4.tcp_congestion_control\":\"htcp\",\"net.ipv4.tcp_mtu_probing\":\"1\"}}";

    static String wan(String tcpMax, String comment) {
        return "{\"summary\":\"RAL WAN disk servers\",\"site\":\"RAL-LCG2\",\"include\":\"flow-base\",\"comment\":\"" + comment + "\","
                + "\"sysctls\":{\"net.core.rmem_max\":\"134217728\",\"net.core.wmem_max\":\"134217728\","
                + "\"net.ipv4.tcp_rmem\":\"4096 87380 " + tcpMax + "\",\"net.ipv4.tcp_wmem\":\"4096 65536 " + tcpMax + "\"},"
                + "\"interface\":{\"txqueuelen\":10000}}";
    }

    @Test
    void profilesAreVersionedWithDiffsIncludesAndRollback() {
        given().auth().oauth2(site("RAL-LCG2")).contentType(ContentType.JSON).body(BASE).put("/profiles/flow-base")
                .then().statusCode(403).contentType(PROBLEM);
        given().auth().oauth2(admin()).contentType(ContentType.JSON).body(BASE).put("/profiles/flow-base")
                .then().statusCode(200).body("version", equalTo(1)).body("site", nullValue());

        String ral = site("RAL-LCG2");
        given().auth().oauth2(ral).contentType(ContentType.JSON).body(wan("33554432", "first")).put("/profiles/flow-wan")
                .then().statusCode(200).body("version", equalTo(1));
        given().auth().oauth2(ral).contentType(ContentType.JSON).body(wan("67108864", "fasterdata 10G/100ms")).put("/profiles/flow-wan")
                .then().statusCode(200).body("version", equalTo(2))
                .body("diff.'sysctls.net.ipv4.tcp_rmem'.from", equalTo("4096 87380 33554432"))
                .body("diff.'sysctls.net.ipv4.tcp_rmem'.to", equalTo("4096 87380 67108864"))
                .body("createdBy", equalTo("admin@RAL-LCG2"));
        // The same body again is no change, so no new version.
        given().auth().oauth2(ral).contentType(ContentType.JSON).body(wan("67108864", "fasterdata 10G/100ms")).put("/profiles/flow-wan")
                .then().statusCode(200).body("version", equalTo(2));
        // Another site's admin cannot touch it.
        given().auth().oauth2(site("FNAL")).contentType(ContentType.JSON).body(wan("1048576", "x")).put("/profiles/flow-wan")
                .then().statusCode(403);

        given().auth().oauth2(ral).get("/profiles/flow-wan/effective").then().statusCode(200)
                .body("chain", equalTo(java.util.List.of("flow-wan", "flow-base")))
                .body("sysctls.'net.core.default_qdisc'", equalTo("fq"))
                .body("sysctls.'net.ipv4.tcp_rmem'", equalTo("4096 87380 67108864"));
        given().auth().oauth2(ral).post("/profiles/flow-wan/rollback?to=1").then().statusCode(200)
                .body("version", equalTo(3)).body("sysctls.'net.ipv4.tcp_rmem'", equalTo("4096 87380 33554432"))
                .body("comment", equalTo("rollback to version 1"));
        given().auth().oauth2(ral).get("/profiles/flow-wan/versions").then().statusCode(200).body("$", hasSize(3));

        // Invalid settings: 400 naming each field, nothing stored.
        given().auth().oauth2(ral).contentType(ContentType.JSON)
                .body("{\"site\":\"RAL-LCG2\",\"sysctls\":{\"net.ipv4.tcp_rmem\":\"4096 99999999 1048576\",\"net.core.rmem_maxx\":\"1\","
                        + "\"net.core.wmem_max\":\"4294967296\"}}")
                .put("/profiles/flow-wan").then().statusCode(400).contentType(PROBLEM)
                .body("errors.field", hasItem("sysctls.net.ipv4.tcp_rmem"))
                .body("errors.field", hasItem("sysctls.net.core.rmem_maxx"))
                .body("errors.field", hasItem("sysctls.net.core.wmem_max"));
        given().auth().oauth2(ral).get("/profiles/flow-wan/versions").then().body("$", hasSize(3));

        // A global profile may not include a site's; site profiles may not include each other in a circle.
        given().auth().oauth2(admin()).contentType(ContentType.JSON)
                .body("{\"include\":\"flow-wan\",\"sysctls\":{}}").put("/profiles/flow-base").then().statusCode(422)
                .body("code", equalTo("INCLUDE_FOREIGN"));
        given().auth().oauth2(ral).contentType(ContentType.JSON).body("{\"site\":\"RAL-LCG2\",\"include\":\"flow-wan\"}")
                .put("/profiles/flow-a").then().statusCode(200);
        given().auth().oauth2(ral).contentType(ContentType.JSON).body(wan("67108864", "loop").replace("\"flow-base\"", "\"flow-a\""))
                .put("/profiles/flow-wan").then().statusCode(422).body("code", equalTo("INCLUDE_CYCLE"));
        given().auth().oauth2(ral).delete("/profiles/flow-wan").then().statusCode(409).body("code", equalTo("PROFILE_IN_USE"));
    }

    @Test
    void hostsGetTheirProfileByRuleRenderedForTheirTools() throws Exception {
        String ral = site("RAL-LCG2");
        given().auth().oauth2(admin()).contentType(ContentType.JSON).body(BASE).put("/profiles/rule-base").then().statusCode(200);
        given().auth().oauth2(ral).contentType(ContentType.JSON).body(wan("67108864", "r").replace("\"flow-base\"", "\"rule-base\""))
                .put("/profiles/rule-wan").then().statusCode(200);
        given().auth().oauth2(ral).contentType(ContentType.JSON).body("{\"name\":\"gridftp07.ral.example\",\"site\":\"RAL-LCG2\","
                        + "\"storageElement\":\"RAL-RULES\",\"nicSpeed\":\"10G\",\"labels\":{\"pool\":\"wan-in\",\"role\":\"disk-server\"}}")
                .post("/hosts").then().statusCode(201);
        // No rule yet.
        given().auth().oauth2(ral).get("/hosts/gridftp07.ral.example/profile").then().statusCode(404).body("code", equalTo("NO_MATCHING_RULE"));

        given().auth().oauth2(ral).contentType(ContentType.JSON)
                .body("{\"profile\":\"rule-wan\",\"priority\":10,\"site\":\"RAL-LCG2\",\"match\":{\"pool\":[\"wan-in\",\"wan-out\"]}}")
                .put("/rules/ral-wan").then().statusCode(200);
        given().auth().oauth2(admin()).contentType(ContentType.JSON)
                .body("{\"profile\":\"rule-base\",\"priority\":10,\"match\":{\"role\":\"disk-server\"}}")
                .put("/rules/all-disk-servers").then().statusCode(200);
        given().auth().oauth2(admin()).contentType(ContentType.JSON)
                .body("{\"profile\":\"rule-base\",\"priority\":50,\"match\":[{\"role\":\"*\"}]}")
                .put("/rules/fallback").then().statusCode(200);
        // A site admin cannot write global rules; malformed selectors are 400.
        given().auth().oauth2(ral).contentType(ContentType.JSON)
                .body("{\"profile\":\"rule-base\",\"priority\":1,\"match\":{\"role\":\"*\"}}").put("/rules/grab").then().statusCode(403);
        given().auth().oauth2(admin()).contentType(ContentType.JSON)
                .body("{\"profile\":\"rule-base\",\"priority\":1,\"match\":{\"role\":7}}").put("/rules/broken")
                .then().statusCode(400).body("errors.field", hasItem("match.role"));

        given().auth().oauth2(ral).get("/hosts/gridftp07.ral.example/profile").then().statusCode(200)
                .body("profile", equalTo("rule-wan")).body("rule", equalTo("ral-wan"))
                .body("chain", equalTo(java.util.List.of("rule-wan", "rule-base")))
                .body("warnings[0]", containsString("all-disk-servers"))
                .body("sysctls.'net.ipv4.tcp_congestion_control'", equalTo("htcp"));
        given().auth().oauth2(ral).get("/hosts/gridftp07.ral.example/profile?format=sysctl").then().statusCode(200)
                .contentType(containsString("text/plain")).body(containsString("net.core.rmem_max = 134217728"))
                .body(containsString("net.core.default_qdisc = fq"));
        given().auth().oauth2(ral).get("/hosts/gridftp07.ral.example/profile?format=tuned").then().statusCode(200)
                .body(containsString("include=ferry-rule-base")).body(containsString("[net]\ntxqueuelen=10000"));
        String cr = given().auth().oauth2(ral).get("/hosts/gridftp07.ral.example/profile?format=tuned-cr").then().statusCode(200)
                .extract().asString();
        JsonNode tuned = new ObjectMapper(new YAMLFactory()).readTree(cr);
        assertEquals("Tuned", tuned.get("kind").asText());
        assertEquals("pool", tuned.at("/spec/recommend/0/match/0/label").asText());
        given().auth().oauth2(ral).get("/hosts/gridftp07.ral.example/profile?format=xml").then().statusCode(400);

        // Drift against the real `sysctl -a` and `ip link` of the build machine.
        given().auth().oauth2(ral).get("/hosts/gridftp07.ral.example/drift").then().statusCode(200).body("status", equalTo("NO_OBSERVATION"));
        given().auth().oauth2(ral).contentType(ContentType.JSON)
                .body(Map.of("sysctl", resource("sysctl-a.txt"), "ip_link", resource("ip-link.txt")))
                .put("/hosts/gridftp07.ral.example/observed").then().statusCode(200).body("interfaces.eth0.mtu", equalTo(1400));
        given().auth().oauth2(site("FNAL")).contentType(ContentType.JSON).body(Map.of("sysctl", "net.core.rmem_max = 1"))
                .put("/hosts/gridftp07.ral.example/observed").then().statusCode(403);
        given().auth().oauth2(ral).contentType(ContentType.JSON).body(Map.of("sysctl", "this is not sysctl output"))
                .put("/hosts/gridftp07.ral.example/observed").then().statusCode(400);
        given().auth().oauth2(ral).get("/hosts/gridftp07.ral.example/observed").then().statusCode(200).body("$", hasSize(1));
        given().auth().oauth2(ral).get("/hosts/gridftp07.ral.example/drift").then().statusCode(200)
                .body("status", equalTo("DRIFTED")).body("profile", equalTo("rule-wan"))
                .body("differences.setting", hasItem("sysctls.net.core.rmem_max"))
                .body("differences.setting", hasItem("interface.txqueuelen"))
                .body("differences.find { it.setting == 'sysctls.net.core.rmem_max' }.observed", equalTo("4194304"));
        given().auth().oauth2(ral).get("/drift?site=RAL-LCG2").then().statusCode(200)
                .body("counts.DRIFTED", org.hamcrest.Matchers.greaterThanOrEqualTo(1))
                .body("hosts.host", hasItem("gridftp07.ral.example"));

        // Stream advice reads the window the host really runs: 4 MiB send buffer here, so a 10G x 150 ms path
        // (187.5 MB in flight) needs far more than 16 streams: clamped to 16.
        given().get("/advice/streams?source_host=gridftp07.ral.example&destination_se=NOWHERE&rtt=150ms").then().statusCode(200)
                .body("streams", equalTo(16)).body("windowBytes", equalTo(4194304))
                .body("source.windowBasis", containsString("observed"))
                .body("reasoning[2]", containsString("clamped to 16"));
        given().get("/advice/streams?source_host=gridftp07.ral.example&destination_se=NOWHERE&rtt=1ms").then().statusCode(200)
                .body("streams", equalTo(1));
        given().get("/advice/streams?source_se=A&destination_se=B&rtt=fast").then().statusCode(400).contentType(PROBLEM);

        // Impact degrades clearly while rate-aggregator is away.
        given().auth().oauth2(ral).get("/impact?host=gridftp07.ral.example&change=rule-wan@1").then().statusCode(200)
                .body("available", equalTo(false)).body("message", containsString("rate-aggregator"));
        given().auth().oauth2(ral).get("/impact?host=gridftp07.ral.example&change=yesterday").then().statusCode(400);
    }

    @Test
    void recommendationsAreAnonymousAndExplainThemselves() {
        given().get("/recommendations?nic=10G&rtt=150ms&streams=4&mtu=9000").then().statusCode(200)
                .body("bdpBytes", equalTo(187500000)).body("perStreamBytes", equalTo(46875000))
                .body("settings.sysctls.'net.ipv4.tcp_rmem'", equalTo("4096 87380 67108864"))
                .body("reasons.'net.ipv4.tcp_rmem'", containsString("BDP"))
                .body("warnings", hasSize(0));
        given().get("/recommendations?nic=10G&rtt=2ms&pool=internal&receiver_nic=1G").then().statusCode(200)
                .body("warnings.code", hasItem("INTERNAL_POOL"))
                .body("warnings.code", hasItem("TXQUEUE_TOWARDS_SLOWER_RECEIVERS"))
                .body("warnings.code", hasItem("BUFFERS_ABOVE_NEED"));
        // Per host: sized for its longest path; peers known to the inventory bring their NIC speed.
        String ral = site("RAL-LCG2");
        given().auth().oauth2(ral).contentType(ContentType.JSON).body("{\"name\":\"wanout01.ral.example\",\"site\":\"RAL-LCG2\","
                + "\"nicSpeed\":\"10G\",\"labels\":{\"pool\":\"wan-out\"}}").post("/hosts").then().statusCode(201);
        given().auth().oauth2(ral).contentType(ContentType.JSON).body("{\"name\":\"t2.example.edu\",\"site\":\"US-T2\","
                + "\"nicSpeed\":\"1G\"}").post("/hosts").then().statusCode(403);
        given().get("/hosts/wanout01.ral.example/recommendation?peers=cmsstor.fnal.example:110ms,eos.cern.example:12ms")
                .then().statusCode(200).body("rttBasis", equalTo("given"))
                .body("recommendation.inputs.rttMs", equalTo(110.0f))
                // 10G at 110 ms is past fasterdata's 100 ms tier: 68.75 MB per stream -> 128 MiB
                .body("recommendation.settings.sysctls.'net.ipv4.tcp_rmem'", equalTo("4096 87380 134217728"));
        given().get("/hosts/wanout01.ral.example/recommendation").then().statusCode(422).body("code", equalTo("NO_RTT"));
        given().get("/hosts/wanout01.ral.example/recommendation?peers=nonsense").then().statusCode(400);
        given().get("/recommendations?nic=10Q&rtt=150ms").then().statusCode(400).contentType(PROBLEM).body("errors.field", hasItem("nic"));
        given().get("/recommendations?nic=10G").then().statusCode(400).body("errors.field", hasItem("rtt"));
        given().get("/recommendations?nic=10G&rtt=10ms&streams=0").then().statusCode(400).body("code", not(equalTo("INTERNAL_ERROR")));
    }

    /**
     * Line breaks and control characters in single-line fields, selectors and setting values are refused at input
     * (400 naming the field), so that nothing can be smuggled into a rendering; NUL bytes in paths and queries are a
     * 400, not a database error.
     */
    @Test
    void lineBreaksAndControlCharactersAreRefusedWhereTheyWouldReachARendering() {
        String ral = site("RAL-LCG2");
        String ok = "{\"site\":\"RAL-LCG2\",\"summary\":\"plain\",\"sysctls\":{\"net.core.rmem_max\":\"134217728\"}}";
        given().auth().oauth2(ral).contentType(ContentType.JSON).body(ok).put("/profiles/smuggle").then().statusCode(200);
        String[][] attacks = {
                {"{\"site\":\"RAL-LCG2\",\"summary\":\"fast\\rnet.ipv4.ip_forward=1\"}", "summary"},
                {"{\"site\":\"RAL-LCG2\",\"summary\":\"fast\\nnet.core.rmem_max=1\"}", "summary"},
                {"{\"site\":\"RAL-LCG2\",\"summary\":\"fast\\u2028net.core.rmem_max=1\"}", "summary"},
                {"{\"site\":\"RAL-LCG2\",\"comment\":\"ok\\nnet.core.rmem_max=1\"}", "comment"},
                {"{\"site\":\"RAL-LCG2\\u0000\"}", "site"},
                {"{\"site\":\"RAL-LCG2\",\"sysctls\":{\"net.ipv4.tcp_sack\":\"1\\nnet.ipv4.ip_forward=1\"}}", "sysctls.net.ipv4.tcp_sack"},
                {"{\"site\":\"RAL-LCG2\",\"sysctls\":{\"net.ipv4.tcp_rmem\":\"4096 87380\\n67108864\"}}", "sysctls.net.ipv4.tcp_rmem"},
                {"{\"site\":\"RAL-LCG2\",\"sysctls\":{\"net.core.rmem_max\":\"1\\n\"}}", "sysctls.net.core.rmem_max"},
        };
        for (String[] a : attacks) {
            given().auth().oauth2(ral).contentType(ContentType.JSON).body(a[0]).put("/profiles/smuggle").then()
                    .statusCode(400).contentType(PROBLEM).body("errors.field", hasItem(a[1]));
        }
        given().auth().oauth2(ral).get("/profiles/smuggle/versions").then().statusCode(200).body("$", hasSize(1));
        // Paths and queries are sent as written: RestAssured would otherwise encode the '%' of %0A and %00 itself.
        given().urlEncodingEnabled(false).auth().oauth2(ral).post("/profiles/smuggle/rollback?to=1&comment=x%0Anet.core.rmem_max%3D1").then()
                .statusCode(400).contentType(PROBLEM).body("errors.field", hasItem("comment"));

        String rule = "{\"profile\":\"smuggle\",\"priority\":3,\"site\":\"RAL-LCG2\",\"match\":";
        String[][] selectors = {
                {"{\"pool\":\"wan-in\\\"\\n  - label: evil\"}", "match.pool"},
                {"{\"pool\":[\"wan-in\",\"x\\n      - label: evil\"]}", "match.pool"},
                {"{\"pool\\n- label: evil\":\"x\"}", "match.pool\n- label: evil"},
                {"[{\"site\":\"RAL\\u0000\"}]", "match[0].site"},
        };
        for (String[] m : selectors) {
            given().auth().oauth2(ral).contentType(ContentType.JSON).body(rule + m[0] + "}").put("/rules/smuggle").then()
                    .statusCode(400).contentType(PROBLEM).body("errors.field", hasItem(m[1]));
        }
        given().auth().oauth2(ral).contentType(ContentType.JSON).body("{\"profile\":\"smuggle\",\"priority\":3,\"site\":\"RAL\\n\",\"match\":{\"pool\":\"wan-in\"}}")
                .put("/rules/smuggle").then().statusCode(400).contentType(PROBLEM);
        given().auth().oauth2(ral).contentType(ContentType.JSON).body("{\"name\":\"smuggle01.ral.example\",\"site\":\"RAL-LCG2\","
                + "\"nicSpeed\":\"10G\",\"kernel\":\"5.14\\nnet.core.rmem_max=1\"}").post("/hosts").then()
                .statusCode(400).contentType(PROBLEM).body("errors.field", hasItem("kernel"));
        given().auth().oauth2(ral).contentType(ContentType.JSON).body("{\"name\":\"smuggle01.ral.example\",\"site\":\"RAL-LCG2\","
                + "\"nicSpeed\":\"10G\",\"labels\":{\"pool\":\"smuggle\"}}").post("/hosts").then().statusCode(201);
        given().auth().oauth2(ral).contentType(ContentType.JSON).body(Map.of("sysctl", "net.core.rmem_max = 1\u0000"))
                .put("/hosts/smuggle01.ral.example/observed").then().statusCode(400).contentType(PROBLEM)
                .body("errors.field", hasItem("sysctl"));
        given().auth().oauth2(ral).contentType(ContentType.JSON).body("{\"sysctl\":\"net.core.rmem_max = 1\",\"observed_at\":\"-5000-01-01T00:00:00Z\"}")
                .put("/hosts/smuggle01.ral.example/observed").then().statusCode(400).contentType(PROBLEM);

        // A rule with a clean selector renders a Tuned CR whose match reads back as written.
        given().auth().oauth2(ral).contentType(ContentType.JSON).body(rule + "{\"pool\":\"smuggle\",\"name\":\"smuggle*\"}}")
                .put("/rules/smuggle").then().statusCode(200);
        given().auth().oauth2(ral).get("/hosts/smuggle01.ral.example/profile?format=sysctl").then().statusCode(200)
                .body(containsString("net.core.rmem_max = 134217728"));

        // NUL bytes and odd bodies: 4xx problem+json, never a database error.
        for (String path : new String[]{"/profiles/%00", "/profiles/%00/versions", "/profiles/a%00/effective", "/hosts/%00",
                "/hosts/%00/profile", "/hosts/%00/drift", "/hosts?site=%00", "/drift?site=RAL%00", "/profiles?site=%00",
                "/impact?host=%00&change=smuggle@1"}) {
            given().urlEncodingEnabled(false).auth().oauth2(ral).get(path).then().statusCode(400).contentType(PROBLEM);
        }
        for (String path : new String[]{"/hosts/%00/recommendation?peers=a:1ms", "/advice/streams?source_host=%00&destination_se=B&rtt=1ms"}) {
            given().urlEncodingEnabled(false).get(path).then().statusCode(400).contentType(PROBLEM);
        }
        given().urlEncodingEnabled(false).auth().oauth2(ral).delete("/rules/%00").then().statusCode(400).contentType(PROBLEM);
        given().urlEncodingEnabled(false).auth().oauth2(ral).delete("/hosts/%00").then().statusCode(400).contentType(PROBLEM);
        // Wrong JSON types: 400 (the media type of a type mismatch is the shared mappers' business, services/lib/problem-json).
        for (String body : new String[]{"null", "[]", "\"x\"", "{\"summary\":{}}", "{\"interface\":{\"mtu\":1e30}}"}) {
            given().auth().oauth2(ral).contentType(ContentType.JSON).body(body).put("/profiles/smuggle").then().statusCode(400);
        }
        for (String body : new String[]{"null", "{\"profile\":\"smuggle\",\"priority\":99999999999,\"match\":{}}", "[null]"}) {
            given().auth().oauth2(ral).contentType(ContentType.JSON).body(body).put("/rules/smuggle").then().statusCode(400);
        }
        given().auth().oauth2(ral).contentType(ContentType.JSON).body("[null]").post("/hosts/import").then().statusCode(400).contentType(PROBLEM);
        given().auth().oauth2(ral).contentType(ContentType.JSON).body("null").put("/hosts/smuggle01.ral.example/observed").then()
                .statusCode(400).contentType(PROBLEM);
    }
}
