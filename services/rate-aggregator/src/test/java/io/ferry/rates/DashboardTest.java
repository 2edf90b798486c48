package io.ferry.rates;

import io.ferry.dev.FerryTestResource;
import io.ferry.dev.HeadlessChromium;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Loads the dashboard in headless Chromium (Debian's chromium) against seeded data, checks that the charts, the
 * link grid and the site table rendered, and keeps a screenshot in target/dashboard.png.
 */
@QuarkusTest
@WithTestResource(FerryTestResource.class)
class DashboardTest {

    @TestHTTPResource("/dashboard/index.html")
    URL dashboard;

    @Inject
    Pool pool;

    /** Runs in the page if any name is ever parsed as markup: the page's title then says so. */
    static final String XSS = "<img src=x onerror=\"document.title='XSS-RAN'\">";

    @Test
    void chartsGridAndSiteTableRenderFromTheApi() throws Exception {
        seed();
        given().get("/dashboard/index.html").then().statusCode(200).body(containsString("chart.umd.js"));
        given().get("/webjars/chart.js/4.4.7/dist/chart.umd.js").then().statusCode(200);

        Path profile = Files.createTempDirectory("chromium-profile");
        String dom = chromium(profile, "--dump-dom", dashboard.toString());
        Matcher m = Pattern.compile("data-rendered=\"charts:(\\d+) grid:(\\d+) sites:(\\d+) probes:(\\d+)\"").matcher(dom);
        assertTrue(m.find(), "the page did not finish rendering: " + dom.substring(0, Math.min(dom.length(), 2000)));
        assertEquals(2, Integer.parseInt(m.group(1)), "throughput and overhead charts");
        assertTrue(Integer.parseInt(m.group(2)) >= 3, "grid cells for the seeded links");
        assertTrue(Integer.parseInt(m.group(3)) >= 3, "rows for the seeded sites");
        assertEquals(1, Integer.parseInt(m.group(4)), "the probe chart rendered");
        Matcher probePoints = Pattern.compile("id=\"probes\"[^>]*data-points=\"(\\d+)\"").matcher(dom);
        assertTrue(probePoints.find() && Integer.parseInt(probePoints.group(1)) >= 18, "the probe chart has the probe runs");
        Matcher points = Pattern.compile("id=\"throughput\"[^>]*data-points=\"(\\d+)\"").matcher(dom);
        assertTrue(points.find() && Integer.parseInt(points.group(1)) > 0, "the throughput chart has data points");
        Matcher ticks = Pattern.compile("id=\"throughput\"[^>]*data-y-ticks=\"([^\"]*)\"").matcher(dom);
        String yTicks = ticks.find() ? ticks.group(1) : "";
        assertTrue(yTicks.contains(" MB/s"), "the throughput axis is in human units: " + yTicks);
        assertFalse(yTicks.matches(".*\\d{7}.*"), "no raw bytes/s on the axis: " + yTicks);
        assertTrue(dom.contains("id=\"monitor-link\" href=\"http://localhost:8081/monitor/\""), "the dashboard links to the monitor");
        given().get("/dashboard/config.json").then().statusCode(200).body("monitor_url", equalTo("http://localhost:8081/monitor/"));

        Path shot = Path.of("target", "dashboard.png").toAbsolutePath();
        Files.deleteIfExists(shot);
        chromium(profile, "--screenshot=" + shot, "--window-size=1400,1900", dashboard.toString());
        assertTrue(Files.size(shot) > 20_000, "a screenshot with content was written to " + shot);
    }

    /**
     * Stored XSS: names are refused at ingest, so rows with markup in their SE and site names are written straight
     * into the rollups (as data stored before the check, or by another writer, would be). The page must show them as
     * text, run nothing, and be served with a policy that forbids inline script.
     */
    @Test
    void markupInStoredNamesIsShownAsTextAndNeverRuns() throws Exception {
        seed();
        given().auth().oauth2(FerryTestResource.token(null, "rates:write")).contentType(ContentType.JSON)
                .body("[{\"id\":\"xss-1\",\"vo\":\"atlas\",\"source_se\":\"DASH-RAL\",\"dest_se\":\"DASH-CERN\","
                        + "\"source_site\":\"" + XSS.replace("\"", "\\\"") + "\",\"bytes_transferred\":1,"
                        + "\"transfer_started_at\":\"2026-11-01T10:00:00Z\",\"transfer_ended_at\":\"2026-11-01T10:00:01Z\",\"outcome\":\"FINISHED\"}]")
                .post("/records").then().statusCode(400).body("errors.field", org.hamcrest.Matchers.hasItem("[0].source_site"));
        OffsetDateTime bin = OffsetDateTime.now(ZoneOffset.UTC).minusHours(2).withMinute(0).withSecond(0).withNano(0);
        String keys = "INSERT INTO rollup_key (dim, k1, k2) VALUES ($1, $2, $3) ON CONFLICT (dim, k1, k2) DO UPDATE SET dim = EXCLUDED.dim RETURNING id";
        String bins = "INSERT INTO rollup_bin (key_id, bin_seconds, bin_start, files_done, files_failed, files_canceled, bytes, size_done, "
                + "transfer_s, prepare_s, checksum_s, queue_s, throughput_sum, throughput_max) VALUES ($1, $2, $3, 50, 1, 0, "
                + "900000000000, 900000000000, 1000, 100, 0, 10, 50000000000, 2000000000) ON CONFLICT DO NOTHING";
        try {
            storeHostileRollupsAndLoadThePage(keys, bins, bin);
        } finally {
            // Rollups without raw records would break RollupConsistencyTest's recomputation: they go again.
            pool.preparedQuery("DELETE FROM rollup_bin WHERE key_id IN (SELECT id FROM rollup_key WHERE k1 = $1)")
                    .execute(Tuple.of(XSS)).await().indefinitely();
        }
    }

    void storeHostileRollupsAndLoadThePage(String keys, String bins, OffsetDateTime bin) throws Exception {
        for (String[] key : new String[][]{{"link", XSS, "XSS-DEST"}, {"site", XSS, "XSS-SITE"}}) {
            int id = pool.preparedQuery(keys).execute(Tuple.of(key[0], key[1], key[2])).await().indefinitely().iterator().next().getInteger(0);
            for (int seconds : new int[]{300, 3600, 86400}) {
                OffsetDateTime start = seconds == 86400 ? bin.withHour(0) : bin;
                pool.preparedQuery(bins).execute(Tuple.of(id, seconds, start)).await().indefinitely();
            }
        }
        given().get("/links?window=7d").then().statusCode(200).body("rows.source", org.hamcrest.Matchers.hasItem(XSS));

        given().get("/dashboard/index.html").then().statusCode(200)
                .header("Content-Security-Policy", containsString("script-src 'self'"))
                .header("Content-Security-Policy", org.hamcrest.Matchers.not(containsString("unsafe-inline")))
                .header("X-Content-Type-Options", equalTo("nosniff"));
        given().get("/dashboard/dashboard.js").then().statusCode(200).header("X-Content-Type-Options", equalTo("nosniff"));

        String dom = chromium(Files.createTempDirectory("chromium-profile"), "--dump-dom", dashboard.toString());
        assertTrue(dom.contains("data-rendered=\"charts:2"), "the page rendered: " + dom.substring(0, Math.min(dom.length(), 2000)));
        assertFalse(dom.contains("<title>XSS-RAN"), "a name was parsed as markup and its handler ran");
        assertFalse(dom.contains("<img"), "a name became an element: " + dom);
        assertTrue(dom.contains("&lt;img src=x onerror=\"document.title='XSS-RAN'\"&gt;"), "the grid and the site table show the name as text");
        assertTrue(dom.contains("<title>Ferry — transfer rates</title>"), "the title is untouched");
    }

    /** Chromium once, with time to fetch and draw before it dumps or shoots the page. */
    static String chromium(Path profile, String... args) throws Exception {
        String[] all = new String[args.length + 1];
        all[0] = "--virtual-time-budget=15000";
        System.arraycopy(args, 0, all, 1, args.length);
        return HeadlessChromium.run(profile, all);
    }

    static void seed() {
        Instant start = Instant.now().minus(20, ChronoUnit.HOURS);
        String[][] links = {{"DASH-RAL", "DASH-CERN"}, {"DASH-CERN", "DASH-RAL"}, {"DASH-FNAL", "DASH-RAL"}};
        List<String> rs = new ArrayList<>();
        int n = 0;
        for (String[] l : links) {
            for (int h = 0; h < 18; h++) {
                for (int f = 0; f < 3; f++) {
                    Instant end = start.plusSeconds(3600L * h + 300L * f);
                    double secs = 8 + (h % 5) + f;
                    Instant ts = end.minusMillis((long) (secs * 1000));
                    Instant ps = ts.minusSeconds(20 + f * 5L);
                    boolean ok = (h + f + n) % 11 != 0;
                    rs.add("{\"id\":\"dash-" + (n++) + "\",\"vo\":\"atlas\",\"source_se\":\"" + l[0] + "\",\"dest_se\":\"" + l[1]
                            + "\",\"source_site\":\"" + l[0].substring(5) + "-SITE\",\"dest_site\":\"" + l[1].substring(5) + "-SITE\","
                            + "\"filesize\":1500000000,\"bytes_transferred\":" + (ok ? 1500000000 : 0) + ",\"submitted_at\":\"" + ps
                            + "\",\"prepare_started_at\":\"" + ps + "\",\"prepare_ended_at\":\"" + ts + "\",\"transfer_started_at\":\"" + ts
                            + "\",\"transfer_ended_at\":\"" + end + "\",\"outcome\":\"" + (ok ? "FINISHED" : "FAILED") + "\"}");
                }
            }
        }
        // transfer-scheduler's link probes on one link: a 100 MB file every hour, under their own activity
        for (int h = 0; h < 18; h++) {
            Instant end = start.plusSeconds(3600L * h + 1800);
            Instant ts = end.minusSeconds(4 + h % 3);
            boolean ok = h % 6 != 5;
            rs.add("{\"id\":\"dash-probe-" + h + "\",\"vo\":\"ops\",\"activity\":\"ferry-probe\",\"source_se\":\"DASH-RAL\",\"dest_se\":\"DASH-CERN\","
                    + "\"source_site\":\"RAL-SITE\",\"dest_site\":\"CERN-SITE\",\"filesize\":100000000,\"bytes_transferred\":" + (ok ? 100000000 : 0)
                    + ",\"transfer_started_at\":\"" + ts + "\",\"transfer_ended_at\":\"" + end + "\",\"outcome\":\"" + (ok ? "FINISHED" : "FAILED") + "\"}");
        }
        given().auth().oauth2(FerryTestResource.token(null, "rates:write")).contentType(ContentType.JSON)
                .body("[" + String.join(",", rs) + "]").post("/records").then().statusCode(200);
        given().auth().oauth2(FerryTestResource.token(null, "rates:write")).post("/rollups/flush").then().statusCode(200);
    }

    /** The probe series are told apart from production by their activity, and each run carries its 12-hour average. */
    @Test
    void probeRecordsMakeALinksProbeSeriesWithTwelveHourAverages() {
        seed();
        io.restassured.path.json.JsonPath series = given().get("/probes?source=DASH-RAL&destination=DASH-CERN&window=24h").then().statusCode(200)
                .extract().jsonPath();
        assertEquals(18, series.getList("runs").size(), series.prettify());
        assertEquals(3, series.getList("runs.findAll { it.outcome == 'FAILED' }").size());
        float average = series.getFloat("runs[-1].average12h");
        assertTrue(average > 1.0e7 && average < 3.0e7, "100 MB in 4-6 s: " + average);
        given().get("/probes?source=DASH-CERN&destination=DASH-RAL&window=24h").then().statusCode(200).body("runs.size()", equalTo(0));
        given().get("/probes/links?window=24h").then().statusCode(200).body("find { it.source == 'DASH-RAL' }.runs", equalTo(18));
        given().get("/probes?source=DASH-RAL&destination=DASH-CERN&window=90d").then().statusCode(400).contentType("application/problem+json");
        given().get("/probes?destination=DASH-CERN").then().statusCode(400).contentType("application/problem+json");
    }
}
