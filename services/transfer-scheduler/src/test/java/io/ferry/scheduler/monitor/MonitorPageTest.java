package io.ferry.scheduler.monitor;

import com.fasterxml.jackson.databind.JsonNode;
import io.ferry.dev.FerryTestResource;
import io.ferry.dev.HeadlessChromium;
import io.ferry.dev.NginxWebDav;
import io.ferry.scheduler.EngineFixture;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The web monitor in headless Chromium while the engine moves a real job between nginx SEs (the source rate-limited,
 * so that its files finish one after another): a user signs in with a token, every page loads with no console error
 * and shows the test's jobs, and the job page follows the files over the event stream as they move. Each page leaves
 * a screenshot in target/monitor-*.png. A link probe on the job's link fills the probes view.
 */
@QuarkusTest
@TestProfile(EngineFixture.WithEngine.class)
@WithTestResource(value = FerryTestResource.class, scope = TestResourceScope.GLOBAL)
class MonitorPageTest {

    static final String VO = "pagevo";
    static final int FILES = 5;

    @TestHTTPResource("/monitor/")
    URL monitor;

    static NginxWebDav nginx;

    @BeforeAll
    static void startNginx() throws Exception {
        nginx = new NginxWebDav();
    }

    @AfterAll
    static void stopNginx() throws Exception {
        nginx.close();
    }

    static void register(String name, String path) {
        given().auth().oauth2(FerryTestResource.token(null, "transfer:admin")).contentType(ContentType.JSON)
                .body("{\"site\":\"" + name + "-SITE\",\"baseUrls\":{\"http\":\"" + nginx.url(path) + "\"},\"access\":{\"open\":true}}")
                .put("/endpoints/" + name).then().statusCode(anyOf(equalTo(200), equalTo(201)));
    }

    static String submit(List<String> files) {
        return given().auth().oauth2(FerryTestResource.token(VO, "transfer:submit")).contentType(ContentType.JSON)
                .body("{\"files\":[" + String.join(",", files) + "],\"params\":{\"retry\":0}}")
                .post("/jobs").then().statusCode(200).extract().path("job_id");
    }

    static String file(String src, String dst) {
        return "{\"sources\":[\"" + nginx.url(src) + "\"],\"destinations\":[\"" + nginx.url(dst) + "\"]}";
    }

    @Test
    void everyPageLoadsAndTheJobPageFollowsAMovingJob() throws Exception {
        register("PAGE-SLOW", "/slow");
        register("PAGE-B", "/se-b");
        // 256 KiB/s at the source: file i takes about i+1 seconds, so they finish one by one
        List<String> files = new ArrayList<>();
        for (int i = 0; i < FILES; i++) {
            Path f = nginx.file("/slow/page/f" + i);
            Files.createDirectories(f.getParent());
            byte[] data = new byte[(i + 1) * 256 * 1024];
            new Random(i).nextBytes(data);
            Files.write(f, data);
            files.add(file("/slow/page/f" + i, "/se-b/page/f" + i));
        }
        // a probe on the moving job's link, so that the probes view has both series to draw
        int probe = given().auth().oauth2(FerryTestResource.token(null, "transfer:admin")).contentType(ContentType.JSON)
                .body("{\"source_se\":\"PAGE-SLOW\",\"dest_se\":\"PAGE-B\",\"file_size\":100000,\"interval_seconds\":2}")
                .post("/probes").then().statusCode(201).extract().path("probe_id");
        String failing = submit(List.of(file("/se-b/page/missing", "/slow/page/never")));
        String moving = submit(files);

        try (HeadlessChromium browser = HeadlessChromium.open(1400, 1000)) {
            browser.navigate(monitor.toString());
            browser.waitFor("document.getElementById('page').dataset.page === 'overview'", Duration.ofSeconds(10));
            // the sign-in box: the token goes to sessionStorage, never into the URL
            browser.evaluate("document.getElementById('token').value = " + quoted(FerryTestResource.token(VO, "transfer:submit"))
                    + "; document.getElementById('signin-button').click(); true");

            browser.navigate(monitor + "#/job/" + moving);
            browser.waitFor("document.getElementById('page').dataset.ready === 'true'", Duration.ofSeconds(20));
            Set<String> seen = new LinkedHashSet<>();
            JsonNode end = browser.waitUntil("[document.getElementById('file-states').textContent, document.getElementById('page').dataset.events,"
                    + " document.getElementById('page').dataset.jobState]", v -> {
                seen.add(v.get(0).asText());
                return v.get(2).asText().equals("FINISHED") && v.get(0).asText().equals(FILES + " FINISHED");
            }, Duration.ofSeconds(90));
            assertTrue(seen.stream().anyMatch(s -> s.contains("FINISHED") && !s.equals(FILES + " FINISHED")),
                    "the page showed the job part done before it was done: " + seen);
            // the stream starts with one event per file (their states then), and every change follows
            assertTrue(end.get(1).asInt() > FILES, "the changes came over the event stream: " + end);
            // then each file's bytes and rate, which the page reads again after the events
            browser.waitFor("[...document.querySelectorAll('#files tbody tr[data-state=FINISHED]')].filter(r => r.dataset.bytes !== '').length === "
                    + FILES + " && document.getElementById('files').textContent.includes(' kB/s')", Duration.ofSeconds(10));
            shoot(browser, "job");

            given().auth().oauth2(FerryTestResource.token(VO, "transfer:read")).get("/jobs/" + failing).then().statusCode(200);
            // FTS3's monitor link, as Rucio puts it in its transfer events, opens the same job's page
            browser.evaluate("location.href = " + quoted(monitor.toURI().resolve("/fts3/ftsmon/") + "#/job/" + failing) + "; true");
            browser.waitFor("(() => { const p = document.getElementById('page'); return location.pathname === '/monitor/' && p !== null"
                    + " && p.dataset.page === 'job' && p.dataset.ready === 'true' && p.textContent.includes(" + quoted(failing) + "); })()",
                    Duration.ofSeconds(20));
            show(browser, "overview", "#/overview?window=1h", "#links", "PAGE-SLOW → PAGE-B");
            show(browser, "jobs", "#/jobs?state=any", "#jobs", moving);
            assertTrue(browser.evaluate("document.getElementById('jobs').textContent").asText().contains(failing));
            show(browser, "errors", "#/errors?window=1h", "#errors", "PAGE-B → PAGE-SLOW");
            show(browser, "optimizer", "#/optimizer?link=PAGE-SLOW|PAGE-B", "#decisions", "PAGE-SLOW → PAGE-B");
            assertTrue(browser.evaluate("Number(document.getElementById('decision-chart').dataset.points)").asInt() > 0, "the chart has points");
            show(browser, "probes", "#/probes?window=1h", "[id='probe-runs-PAGE-SLOW-PAGE-B']", "FINISHED");
            assertTrue(browser.evaluate("Number(document.querySelector('.probe-chart').dataset.runs)").asInt() > 0, "the probe chart has runs");
            assertTrue(browser.evaluate("document.getElementById('probe-links').textContent").asText().contains("B/s"), "rates in human units");
            show(browser, "config", "#/config", "#endpoints", "PAGE-SLOW");
            assertEquals("http://localhost:8084/dashboard/", browser.evaluate("document.getElementById('dashboard-link').href").asText());
            assertEquals(List.of(), browser.consoleErrors(), "no console errors on any page");
        } finally {
            given().auth().oauth2(FerryTestResource.token(null, "transfer:admin")).delete("/probes/" + probe).then().statusCode(204);
        }
    }

    /**
     * Goes to a page, waits until its table shows {@code text}, keeps a screenshot. What the page waits for (an optimizer
     * decision, a failure) may come after it was drawn: until then it is drawn again each second.
     */
    static void show(HeadlessChromium browser, String name, String hash, String table, String text) throws Exception {
        browser.evaluate("location.hash = " + quoted(hash) + "; window.lastDrawn = Date.now(); true");
        browser.waitFor("(() => { const p = document.getElementById('page');"
                + " if (p.dataset.ready !== 'true' || p.dataset.page !== " + quoted(name) + ") return false;"
                + " const t = document.querySelector(" + quoted(table) + ");"
                + " if (t && t.textContent.includes(" + quoted(text) + ")) return true;"
                + " if (Date.now() - window.lastDrawn > 1000) { window.lastDrawn = Date.now(); window.dispatchEvent(new HashChangeEvent('hashchange')); }"
                + " return false; })()", Duration.ofSeconds(30));
        shoot(browser, name);
    }

    static void shoot(HeadlessChromium browser, String name) throws Exception {
        Path shot = Path.of("target", "monitor-" + name + ".png").toAbsolutePath();
        browser.screenshot(shot);
        assertTrue(Files.size(shot) > 10_000, "a screenshot with content was written to " + shot);
    }

    static String quoted(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
