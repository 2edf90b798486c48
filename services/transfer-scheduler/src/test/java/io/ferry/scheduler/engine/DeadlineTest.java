package io.ferry.scheduler.engine;

import io.ferry.dev.FerryTestResource;
import io.ferry.scheduler.EngineFixture;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Jobs with a deadline on a rate-limited nginx link: within a queue the nearest deadline is claimed first, and what is
 * unfinished when the deadline passes is cancelled, a running copy included, with the deadline as the reason.
 */
@QuarkusTest
@TestProfile(EngineFixture.WithEngine.class)
@WithTestResource(value = FerryTestResource.class, scope = TestResourceScope.GLOBAL)
class DeadlineTest extends EngineFixture {

    @Test
    void aJobWithANearerDeadlineOvertakesAnEarlierJobWithout() throws Exception {
        oneAtATime("NGX-SLOW", "NGX-A");
        List<String> undated = new ArrayList<>();
        // 384 KiB through the slow location takes about half a second each
        for (int i = 0; i < 20; i++) {
            write("/slow/edf/u" + i, 384 << 10, 300 + i);
            undated.add(file("/slow/edf/u" + i, "/se-a/edf/u" + i, null));
        }
        List<String> dated = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            write("/slow/edf/d" + i, 384 << 10, 400 + i);
            dated.add(file("/slow/edf/d" + i, "/se-a/edf/d" + i, null));
        }
        String first = submit(vo("atlas"), undated, "{}");
        awaitJob(vo("atlas"), first, Duration.ofSeconds(20), "ACTIVE");
        String deadline = Instant.now().plus(10, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.SECONDS).toString();
        long urgentSubmitted = Instant.now().toEpochMilli() * 1000;
        String urgent = submit(vo("atlas"), dated, "{\"deadline\":\"" + deadline + "\"}");
        given().auth().oauth2(vo("atlas")).get("/jobs/" + urgent).then().body("deadline", equalTo(deadline));
        awaitJob(vo("atlas"), urgent, Duration.ofSeconds(30), "FINISHED", "FAILED", "CANCELED");
        awaitJob(vo("atlas"), first, Duration.ofSeconds(90), "FINISHED", "FAILED", "CANCELED");
        assertEquals("FINISHED", given().auth().oauth2(vo("atlas")).get("/jobs/" + urgent).then().extract().path("job_state"));
        List<Long> undatedStarts = starts(first);
        long lastUrgentStart = starts(urgent).stream().mapToLong(Long::longValue).max().orElseThrow();
        // only files claimed before the urgent job arrived go before it: the copying ones and those prepared ahead
        // (2.5 times the link's target; the link may still run at its default target when the first job arrives)
        long before = undatedStarts.stream().filter(s -> s < lastUrgentStart).count();
        assertTrue(before <= 8, before + " of 20 files of the earlier job without a deadline started before the urgent job's last; undated "
                + undatedStarts + ", urgent " + starts(urgent) + ", submitted at " + urgentSubmitted);
    }

    @Test
    void whatIsUnfinishedAtTheDeadlineIsCancelledEvenMidCopy() throws Exception {
        oneAtATime("NGX-SLOW", "NGX-B");
        // 8 MiB at 256 KiB/s: half a minute each, far beyond the deadline
        write("/slow/late/f0", 8 << 20, 500);
        write("/slow/late/f1", 8 << 20, 501);
        Instant deadline = Instant.now().plusSeconds(5).truncatedTo(ChronoUnit.SECONDS);
        String id = submit(vo("lhcb"), List.of(file("/slow/late/f0", "/se-b/late/f0", null), file("/slow/late/f1", "/se-b/late/f1", null)),
                "{\"deadline\":\"" + deadline + "\"}");
        awaitJob(vo("lhcb"), id, Duration.ofSeconds(20), "ACTIVE");
        awaitJob(vo("lhcb"), id, Duration.ofSeconds(20), "CANCELED");
        assertTrue(Instant.now().isAfter(deadline), "cancelled before its deadline");
        JsonPath f = files(vo("lhcb"), id);
        for (int i = 0; i < 2; i++) {
            assertEquals("CANCELED", f.getString("[" + i + "].file_state"), f.prettify());
            assertTrue(f.getString("[" + i + "].reason").contains("deadline " + deadline), f.prettify());
        }
        // the running copy was stopped: nginx never completed its PUT
        Thread.sleep(2000);
        assertFalse(Files.exists(nginx.file("/se-b/late/f0")));
        assertFalse(Files.exists(nginx.file("/se-b/late/f1")));
    }

    @Test
    void aDeadlineThatPassedOrIsNoTimeIsRefusedAndNothingIsStored() throws Exception {
        write("/se-a/deadline/f1", 1000, 600);
        long jobs = count("SELECT count(*) FROM job");
        for (String wrong : List.of("\"2020-01-01T00:00:00Z\"", "\"in an hour\"", "3600")) {
            given().auth().oauth2(vo("atlas")).contentType(ContentType.JSON)
                    .body("{\"files\":[" + file("/se-a/deadline/f1", "/se-b/deadline/f1", null) + "],\"params\":{\"deadline\":" + wrong + "}}")
                    .post("/jobs").then().statusCode(400).contentType("application/problem+json")
                    .body("errors.field", org.hamcrest.Matchers.hasItem("params.deadline"));
        }
        assertEquals(jobs, count("SELECT count(*) FROM job"));
    }

    private static void oneAtATime(String source, String dest) {
        given().auth().oauth2(admin()).contentType(ContentType.JSON).body("{\"min_active\":1,\"max_active\":1,\"optimizer_mode\":\"fixed\"}")
                .put("/links/" + source + "/" + dest).then().statusCode(anyOf(equalTo(200), equalTo(201)));
    }

    private static List<Long> starts(String jobId) throws Exception {
        return EngineTest.spans(jobId).stream().map(s -> s[0]).toList();
    }
}
