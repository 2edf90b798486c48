package io.ferry.scheduler.engine;

import io.ferry.dev.FerryTestResource;
import io.ferry.scheduler.EngineFixture;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Rate caps through real nginx, on its unlimited locations: a job's max_rate bounds the job's files together, a
 * link's bounds the link's files of every VO. The average, from the first start to the last finish, must stay
 * under the cap (plus the one burst the bucket allows); the lower bound is loose, for a loaded machine.
 */
@QuarkusTest
@TestProfile(EngineFixture.WithEngine.class)
@WithTestResource(value = FerryTestResource.class, scope = TestResourceScope.GLOBAL)
class RateCapTest extends EngineFixture {

    private static final int SIZE = 4 << 20;
    private static final double CAP = 4_000_000;

    @Test
    void aJobsFilesTogetherStayUnderItsMaxRate() throws Exception {
        List<String> files = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            String adler = write("/se-a/jobcap/f" + i, SIZE, 700 + i);
            files.add(file("/se-a/jobcap/f" + i, "/se-b/jobcap/f" + i, adler));
        }
        String id = submit(vo("atlas"), files, "{\"max_rate\":\"4MB/s\"}");
        assertEquals("FINISHED", awaitJob(vo("atlas"), id, Duration.ofSeconds(60), "FINISHED", "FAILED", "CANCELED"),
                files(vo("atlas"), id).prettify());
        assertAverageUnderCap("job", 8L * SIZE, List.of(id));
    }

    @Test
    void aLinksMaxRateBoundsTheJobsOfEveryVoTogether() throws Exception {
        given().auth().oauth2(admin()).contentType(ContentType.JSON).body("{\"max_rate\":4000000}")
                .put("/links/NGX-A/NGX-C").then().statusCode(anyOf(equalTo(200), equalTo(201))).body("max_rate", equalTo(4_000_000));
        try {
            List<String> ids = new ArrayList<>();
            for (String vo : List.of("atlas", "lhcb")) {
                List<String> files = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    String adler = write("/se-a/linkcap/" + vo + i, SIZE, vo.hashCode() + i);
                    files.add(file("/se-a/linkcap/" + vo + i, "/se-c/linkcap/" + vo + i, adler));
                }
                ids.add(submit(vo(vo), files, "{}"));
            }
            for (int i = 0; i < 2; i++) {
                String token = vo(i == 0 ? "atlas" : "lhcb");
                assertEquals("FINISHED", awaitJob(token, ids.get(i), Duration.ofSeconds(60), "FINISHED", "FAILED", "CANCELED"),
                        files(token, ids.get(i)).prettify());
            }
            assertAverageUnderCap("link", 8L * SIZE, ids);
        } finally {
            given().auth().oauth2(admin()).delete("/links/NGX-A/NGX-C").then().statusCode(anyOf(equalTo(200), equalTo(204)));
        }
    }

    @Test
    void aRateCapThatIsNoRateOrOutOfBoundsIsRefusedNamingTheField() throws Exception {
        write("/se-a/badcap/f1", 1000, 710);
        long jobs = count("SELECT count(*) FROM job");
        // a job's and a link's max_rate are read alike
        for (String wrong : List.of("\"fast\"", "0", "50", "\"50KB/s\"", "\"200GB/s\"", "\"5 parsecs\"", "4000000.5", "{}", "true", "[4000000]", "99999", "\"1Tbit/s\"")) {
            given().auth().oauth2(vo("atlas")).contentType(ContentType.JSON)
                    .body("{\"files\":[" + file("/se-a/badcap/f1", "/se-b/badcap/f1", null) + "],\"params\":{\"max_rate\":" + wrong + "}}")
                    .post("/jobs").then().statusCode(400).contentType("application/problem+json")
                    .body("errors.field", hasItem("params.max_rate"));
            given().auth().oauth2(admin()).contentType(ContentType.JSON).body("{\"max_rate\":" + wrong + "}")
                    .put("/links/NGX-A/NGX-B").then().statusCode(400).contentType("application/problem+json")
                    .body("errors.field", hasItem("max_rate"));
        }
        assertEquals(jobs, count("SELECT count(*) FROM job"));
    }

    /** Asserts the jobs' bytes over their first start to last finish are at most the cap + 10%, and at least half of it. */
    private static void assertAverageUnderCap(String cap, long bytes, List<String> jobs) throws Exception {
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (String id : jobs) {
            for (long[] span : EngineTest.spans(id)) {
                first = Math.min(first, span[0]);
                last = Math.max(last, span[1]);
            }
        }
        double seconds = (last - first) / 1e6;
        double average = bytes / seconds;
        System.out.printf("%s rate cap %.1f MB/s: %d bytes in %.2f s, %.2f MB/s%n", cap, CAP / 1e6, bytes, seconds, average / 1e6);
        assertTrue(average <= CAP * 1.1, "averaged " + average + " B/s over " + seconds + " s, above the cap " + CAP);
        assertTrue(average >= CAP * 0.5, "averaged " + average + " B/s over " + seconds + " s, far below the cap " + CAP);
    }
}
