package io.ferry.rates;

import io.ferry.dev.FerryTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.closeTo;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.lessThan;

/** The queries sites and tools read, on datasets whose answers are known. */
@QuarkusTest
@WithTestResource(FerryTestResource.class)
class RatesQueriesTest {

    static final String PROBLEM = "application/problem+json";
    static final long MB = 1_000_000;

    static {
        // Read JSON decimals as doubles: the figures here are compared to 1e-6.
        io.restassured.RestAssured.config = io.restassured.RestAssured.config().jsonConfig(io.restassured.config.JsonConfig.jsonConfig()
                .numberReturnType(io.restassured.path.json.config.JsonPathConfig.NumberReturnType.DOUBLE));
    }

    static String writer() {
        return FerryTestResource.token(null, "rates:write");
    }

    /** A finished transfer of {@code bytes} that ended at {@code end}, moving for {@code seconds} after {@code prepare} s. */
    static String done(String id, String src, String dst, long bytes, Instant end, double seconds, double prepare) {
        Instant ts = end.minusMillis((long) (seconds * 1000));
        Instant ps = ts.minusMillis((long) (prepare * 1000));
        return "{\"id\":\"" + id + "\",\"vo\":\"cms\",\"source_se\":\"" + src + "\",\"dest_se\":\"" + dst
                + "\",\"source_site\":\"" + src + "-SITE\",\"dest_site\":\"" + dst + "-SITE\",\"filesize\":" + bytes
                + ",\"bytes_transferred\":" + bytes + ",\"submitted_at\":\"" + ps + "\",\"prepare_started_at\":\"" + ps
                + "\",\"prepare_ended_at\":\"" + ts + "\",\"transfer_started_at\":\"" + ts + "\",\"transfer_ended_at\":\"" + end
                + "\",\"outcome\":\"FINISHED\"}";
    }

    static void ingest(List<String> records) {
        given().auth().oauth2(writer()).contentType(ContentType.JSON).body("[" + String.join(",", records) + "]")
                .post("/records").then().statusCode(200);
        flush();
    }

    static void flush() {
        given().auth().oauth2(writer()).post("/rollups/flush").then().statusCode(200);
    }

    @Test
    void regressionRecoversAKnownSlope() {
        Instant start = Instant.now().minus(2, ChronoUnit.DAYS).truncatedTo(ChronoUnit.HOURS);
        List<String> rs = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            rs.add(done("reg-" + i, "REG-A", "REG-B", 100 * MB, start.plusSeconds(10L * i), 5, 0));
        }
        ingest(rs);
        given().get("/regression?source=REG-A&destination=REG-B&from=" + start.minusSeconds(1) + "&to=" + start.plusSeconds(3600))
                .then().statusCode(200).body("n", equalTo(20))
                .body("bytesPerSecond", closeTo(10_000_000.0, 1.0)).body("r2", closeTo(1.0, 1e-9));
        given().get("/regression?source=REG-A&destination=NOWHERE&from=" + start + "&to=" + start.plusSeconds(60))
                .then().statusCode(422).contentType(PROBLEM).body("code", equalTo("TOO_FEW_TRANSFERS"));
        given().get("/regression?source=REG-A&destination=REG-B&from=yesterday&to=" + start).then().statusCode(400)
                .body("errors.field", hasItem("from"));
    }

    @Test
    void compareDetectsAFiftyPercentImprovementAndNoChangeOnIdenticalHalves() {
        Instant at = Instant.now().minus(3, ChronoUnit.DAYS).truncatedTo(ChronoUnit.HOURS);
        List<String> rs = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            double noise = 0.9 + 0.2 * (i % 7) / 6.0;
            double before = 10 * MB * noise;
            double after = 15 * MB * noise;
            rs.add(done("cmp-b-" + i, "CMP-A", "CMP-B", (long) (before * 20), at.minusSeconds(3600L + 600L * i), 20, 10));
            rs.add(done("cmp-a-" + i, "CMP-A", "CMP-B", (long) (after * 20), at.plusSeconds(3600L + 600L * i), 20, 10));
            rs.add(done("same-b-" + i, "SAME-A", "SAME-B", (long) (before * 20), at.minusSeconds(3600L + 600L * i), 20, 10));
            rs.add(done("same-a-" + i, "SAME-A", "SAME-B", (long) (before * 20), at.plusSeconds(3600L + 600L * i), 20, 10));
        }
        ingest(rs);
        given().get("/compare?source=CMP-A&destination=CMP-B&at=" + at + "&window=2d").then().statusCode(200)
                .body("before.n", equalTo(40)).body("after.n", equalTo(40))
                .body("ratio", closeTo(1.5, 0.01)).body("pValue", lessThan(0.001)).body("verdict", equalTo("improved"));
        given().get("/compare?source=SAME-A&destination=SAME-B&at=" + at + "&window=2d").then().statusCode(200)
                .body("ratio", closeTo(1.0, 1e-9)).body("pValue", greaterThan(0.5)).body("verdict", equalTo("no significant change"));
        given().get("/compare?se=CMP-B&at=" + at + "&window=2d").then().statusCode(200).body("verdict", equalTo("improved"));
        given().get("/compare?source=CMP-A&destination=CMP-B").then().statusCode(400).contentType(PROBLEM).body("errors.field", hasItem("at"));
    }

    @Test
    void costMatrixPricesEachCellAndNamesItsBasis() {
        Instant end = Instant.now().minus(1, ChronoUnit.DAYS);
        List<String> rs = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            // 100 MB in 10 s after a 20 s prepare: 10 MB/s and 20 s overhead per file.
            rs.add(done("cost-" + i, "COST-RAL", "COST-CERN", 100 * MB, end.plusSeconds(60L * i), 10, 20));
        }
        ingest(rs);
        given().auth().oauth2(writer()).contentType(ContentType.JSON)
                .body("[{\"source\":\"COST-RAL\",\"destination\":\"COST-NIKHEF\",\"tool\":\"iperf3\",\"time\":\"" + end
                        + "\",\"throughput_bps\":80000000,\"rtt_ms\":12.5}]")
                .post("/measurements").then().statusCode(200).body("accepted", equalTo(1));
        given().get("/cost?from=COST-RAL&to=COST-CERN,COST-NIKHEF,COST-CNAF&filesize=11MB").then().statusCode(200)
                .body("filesize", equalTo(11000000))
                .body("cells.find { it.to == 'COST-CERN' }.seconds", closeTo(21.1, 1e-6))
                .body("cells.find { it.to == 'COST-CERN' }.basis.source", equalTo("transfers"))
                .body("cells.find { it.to == 'COST-CERN' }.basis.samples", equalTo(4))
                .body("cells.find { it.to == 'COST-NIKHEF' }.seconds", closeTo(31.1, 1e-6))
                .body("cells.find { it.to == 'COST-NIKHEF' }.basis.source", equalTo("measurements"))
                .body("cells.find { it.to == 'COST-CNAF' }.basis.source", equalTo("default"));
        given().get("/cost?to=COST-CERN").then().statusCode(400).body("errors.field", hasItem("from"));
        given().get("/cost?from=COST-RAL&to=COST-CERN&filesize=eleven").then().statusCode(400).body("errors.field", hasItem("filesize"));
    }

    @Test
    void linkTablesSeriesSpikesGroupsAndSites() {
        Instant start = Instant.now().minus(30, ChronoUnit.HOURS).truncatedTo(ChronoUnit.HOURS);
        List<String> rs = new ArrayList<>();
        for (int h = 0; h < 24; h++) {
            int files = h == 12 ? 10 : 1; // one hour carries ten times the usual traffic
            for (int f = 0; f < files; f++) {
                rs.add(done("spk-" + h + "-" + f, "SPK-A", "SPK-B", 100 * MB, start.plusSeconds(3600L * h + 60L * f + 30), 10, 30));
            }
        }
        ingest(rs);
        given().get("/rates?source=SPK-A&destination=SPK-B&window=2d&bin=1h").then().statusCode(200)
                .body("bins.size()", equalTo(24))
                .body("spikes.size()", equalTo(1)).body("spikes[0].factor", closeTo(10.0, 1e-6))
                .body("topLinks.source", hasItem("SPK-A"));
        given().get("/rates?source=SPK-A&destination=SPK-B&window=2d&bin=7m").then().statusCode(400).body("errors.field", hasItem("bin"));
        given().get("/links?window=2d").then().statusCode(200)
                .body("rows.find { it.source == 'SPK-A' }.filesDone", equalTo(33))
                .body("rows.find { it.source == 'SPK-A' }.efficiency", equalTo(1.0))
                .body("rows.find { it.source == 'SPK-A' }.overheadRatio", closeTo(4.0, 1e-6))
                .body("rows.find { it.source == 'SPK-A' }.avgFileThroughput", closeTo(10_000_000.0, 1.0));
        given().auth().oauth2(writer()).contentType(ContentType.JSON).body("{\"sites\":[\"SPK-A-SITE\",\"OTHER\"]}")
                .put("/groups/UK-T2s").then().statusCode(200);
        given().get("/links?window=2d&by=group").then().statusCode(200)
                .body("rows.find { it.source == 'UK-T2s' && it.destination == 'SPK-B-SITE' }.filesDone", equalTo(33));
        given().get("/sites?window=2d").then().statusCode(200)
                .body("sites.find { it.site == 'SPK-B-SITE' }.filesIn", equalTo(33));
        given().get("/links?window=fortnight").then().statusCode(400).contentType(PROBLEM);
        given().get("/links?by=planet").then().statusCode(400);
    }

    @Test
    void measurementsAndCsvImportsValidateUnitsAndAreIdempotent() {
        String at = Instant.now().minus(1, ChronoUnit.HOURS).toString();
        given().auth().oauth2(writer()).contentType(ContentType.JSON)
                .body("[{\"source\":\"ps.ral.example\",\"destination\":\"ps.fnal.example\",\"tool\":\"owamp\",\"time\":\"" + at + "\",\"rtt_ms\":110,\"loss\":0.001}]")
                .post("/measurements").then().statusCode(200);
        given().auth().oauth2(writer()).contentType(ContentType.JSON)
                .body("[{\"source\":\"ps.ral.example\",\"destination\":\"ps.fnal.example\",\"tool\":\"owamp\",\"time\":\"" + at + "\",\"loss\":5}]")
                .post("/measurements").then().statusCode(400).contentType(PROBLEM).body("errors.field", hasItem("[0].loss"));
        given().auth().oauth2(writer()).contentType(ContentType.JSON)
                .body("{\"source\":\"a\",\"destination\":\"b\",\"tool\":\"iperf3\",\"time\":\"" + at + "\",\"throughput_bps\":\"10Gbps\"}")
                .post("/measurements").then().statusCode(400);
        given().get("/measurements/latest?host=ps.ral.example").then().statusCode(200)
                .body("peers[0].peer", equalTo("ps.fnal.example")).body("peers[0].rtt_ms", equalTo(110.0));

        String csv = "timestamp,source_site,source_se,destination_site,destination_se,bytes,transfer_seconds,prepare_seconds,success\n"
                + Instant.now().minus(2, ChronoUnit.HOURS) + ",RAL-LCG2,CSV-RAL,CERN-PROD,CSV-CERN,1000000000,100,25,true\n"
                + Instant.now().minus(2, ChronoUnit.HOURS) + ",RAL-LCG2,CSV-RAL,CERN-PROD,CSV-CERN,1000000000,-3,25,true\n"
                + Instant.now().minus(3, ChronoUnit.HOURS) + ",RAL-LCG2,CSV-RAL,CERN-PROD,CSV-CERN,0,0,0,false\n";
        given().auth().oauth2(writer()).contentType("text/csv").body(csv).post("/records/csv?vo=cms").then().statusCode(207)
                .body("accepted", equalTo(2)).body("rejected[0].index", equalTo(1));
        given().auth().oauth2(writer()).contentType("text/csv").body(csv).post("/records/csv?vo=cms").then().statusCode(207)
                .body("accepted", equalTo(0)).body("duplicates", equalTo(2));
        given().auth().oauth2(writer()).contentType("text/csv").body("when,bytes\nx,1\n").post("/records/csv?vo=cms")
                .then().statusCode(400).body("detail", containsString("missing column"));
        flush();
        given().get("/links?window=1d").then().statusCode(200)
                .body("rows.find { it.source == 'CSV-RAL' }.filesFailed", greaterThanOrEqualTo(1))
                .body("rows.find { it.source == 'CSV-RAL' }.overheadRatio", closeTo(1.25, 1e-6));
    }

    /**
     * Anonymous reads cost what their bounds allow, not what the table holds: windows have a maximum, and the
     * raw records one answer reads are limited (to 1,000 in tests, ferry.rates.reads.max-rows), which the answer says.
     */
    @Test
    void anonymousReadsAreBoundedInTimeAndRowsAndSaySoWhenCut() {
        Instant start = Instant.now().minus(1, ChronoUnit.DAYS).truncatedTo(ChronoUnit.HOURS);
        List<String> rs = new ArrayList<>();
        for (int i = 0; i < 1200; i++) {
            rs.add(done("big-" + i, "BIG-A", "BIG-B", MB, start.plusSeconds(30L * i), 1, 0));
        }
        ingest(rs);
        Instant middle = start.plusSeconds(30L * 600);
        given().get("/regression?source=BIG-A&destination=BIG-B&from=" + start.minusSeconds(1) + "&to=" + start.plusSeconds(86_000))
                .then().statusCode(200).body("truncated", equalTo(true)).body("n", equalTo(1000));
        for (String scope : new String[]{"source=BIG-A&destination=BIG-B", "se=BIG-B", "site=BIG-A-SITE"}) {
            given().get("/compare?" + scope + "&at=" + middle + "&window=1d").then().statusCode(200)
                    .body("truncated", equalTo(true)).body("before.n", equalTo(500)).body("after.n", equalTo(500));
        }
        // A small answer is whole and says so.
        given().get("/compare?se=BIG-B&at=" + start.plusSeconds(30L * 1190) + "&window=1h").then().statusCode(200)
                .body("truncated", equalTo(false)).body("after.n", equalTo(10));

        // Windows beyond the maximum (366 days) are refused, naming the parameter.
        given().get("/regression?source=BIG-A&destination=BIG-B&from=2020-01-01T00:00:00Z&to=2026-01-01T00:00:00Z")
                .then().statusCode(400).contentType(PROBLEM).body("errors.field", hasItem("to"));
        given().get("/compare?se=BIG-B&at=" + middle + "&window=2y").then().statusCode(400).contentType(PROBLEM)
                .body("errors.field", hasItem("window"));
        given().get("/links?window=5y").then().statusCode(400).contentType(PROBLEM).body("errors.field", hasItem("window"));
        given().get("/sites?window=400d").then().statusCode(400).contentType(PROBLEM).body("errors.field", hasItem("window"));
        given().get("/rates?source=BIG-A&destination=BIG-B&window=10y&bin=1d").then().statusCode(400).contentType(PROBLEM)
                .body("errors.field", hasItem("window"));
        given().get("/compare?at=" + middle).then().statusCode(400).contentType(PROBLEM).body("errors.field", hasItem("source"));
    }
}
