package io.ferry.scheduler.storage.bans;

import io.ferry.dev.DevTokens;
import io.ferry.dev.FerryTestResource;
import io.ferry.scheduler.EngineFixture;
import io.ferry.scheduler.storage.bans.BanService;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.time.Duration;
import java.util.List;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** FTS3's bans end to end: a banned SE holds or cancels its files, a wait ban's timeout, a banned user's jobs. */
@QuarkusTest
@TestProfile(EngineFixture.WithEngine.class)
@WithTestResource(value = FerryTestResource.class, scope = TestResourceScope.GLOBAL)
class BanTest extends EngineFixture {

    static String fileState(String token, String id) {
        return files(token, id).getString("[0].file_state");
    }

    /**
     * FTS3's SE ban on an SE of its own (the other tests' SEs stay unbanned): wait with allow_submit holds a new
     * file queued; cancel cancels it ("Storage banned"), answers its job and refuses submissions; the unban lets
     * them through again.
     */
    @Test
    void aBannedSeHoldsOrCancelsItsFilesAndRefusesSubmissions() throws Exception {
        Files.createDirectories(nginx.file("/se-ban"));
        given().auth().oauth2(admin()).contentType(ContentType.JSON).body("{\"site\":\"BAN-SITE\",\"baseUrls\":{\"http\":\""
                + nginx.url("/se-ban") + "\"},\"access\":{\"open\":true}}").put("/endpoints/NGX-BAN").then().statusCode(anyOf(equalTo(200), equalTo(201)));
        write("/se-a/banned/f1", 50_000, 51);
        // only administrators ban
        given().auth().oauth2(vo("atlas")).contentType(ContentType.JSON).body("{\"storage\":\"NGX-BAN\"}").post("/ban/se").then().statusCode(403);
        ban("se", "{\"storage\":\"NGX-BAN\",\"status\":\"cancel\",\"allow_submit\":true}").statusCode(400)
                .contentType("application/problem+json");
        try {
            ban("se", "{\"storage\":\"NGX-BAN\",\"status\":\"wait\",\"allow_submit\":true,\"message\":\"downtime\"}").statusCode(200)
                    .body("$", hasSize(0));
            given().auth().oauth2(admin()).get("/ban/se").then().statusCode(200).body("find { it.se == 'NGX-BAN' }.status", equalTo("WAIT_AS"))
                    .body("find { it.se == 'NGX-BAN' }.message", equalTo("downtime"));
            String held = submit(vo("atlas"), List.of(file("/se-a/banned/f1", "/se-ban/f1", null)), "{}");
            Thread.sleep(1500);
            assertEquals("SUBMITTED", fileState(vo("atlas"), held), "a file of a banned SE must stay queued");
            ban("se", "{\"storage\":\"NGX-BAN\",\"status\":\"cancel\"}").statusCode(200).body("$", equalTo(List.of(held)));
            JsonPath f = files(vo("atlas"), held);
            assertEquals("CANCELED", f.getString("[0].file_state"));
            assertEquals("Storage banned", f.getString("[0].reason"));
            given().auth().oauth2(vo("atlas")).get("/jobs/" + held).then().body("job_state", equalTo("CANCELED"));
            given().auth().oauth2(vo("atlas")).contentType(ContentType.JSON)
                    .body("{\"files\":[" + file("/se-a/banned/f1", "/se-ban/f2", null) + "]}").post("/jobs").then().statusCode(403)
                    .contentType("application/problem+json");
        } finally {
            given().auth().oauth2(admin()).queryParam("storage", "NGX-BAN").delete("/ban/se").then().statusCode(204);
        }
        given().auth().oauth2(admin()).get("/ban/se").then().statusCode(200).body("se", Matchers.not(hasItem("NGX-BAN")));
        String after = submit(vo("atlas"), List.of(file("/se-a/banned/f1", "/se-ban/f3", null)), "{}");
        assertEquals("FINISHED", awaitJob(vo("atlas"), after, Duration.ofSeconds(30), "FINISHED", "FAILED", "CANCELED"));
        assertFalse(Files.exists(nginx.file("/se-ban/f1")));
    }

    /** A wait ban with a timeout holds the file, then cancels it once the timeout passed. */
    @Test
    void aWaitBanCancelsWhatItHeldOnceItsTimeoutPassed() throws Exception {
        Files.createDirectories(nginx.file("/se-ban-wait"));
        given().auth().oauth2(admin()).contentType(ContentType.JSON).body("{\"site\":\"BAN-SITE\",\"baseUrls\":{\"http\":\""
                + nginx.url("/se-ban-wait") + "\"},\"access\":{\"open\":true}}").put("/endpoints/NGX-BAN-WAIT").then()
                .statusCode(anyOf(equalTo(200), equalTo(201)));
        write("/se-a/banned-wait/f1", 50_000, 52);
        try {
            ban("se", "{\"storage\":\"NGX-BAN-WAIT\",\"status\":\"WAIT\",\"allow_submit\":true,\"timeout\":\"3\"}").statusCode(200);
            String held = submit(vo("atlas"), List.of(file("/se-a/banned-wait/f1", "/se-ban-wait/f1", null)), "{}");
            assertEquals("CANCELED", awaitJob(vo("atlas"), held, Duration.ofSeconds(20), "CANCELED", "FINISHED", "FAILED"));
            assertEquals(BanService.WAIT_EXPIRED, files(vo("atlas"), held).getString("[0].reason"));
            assertFalse(Files.exists(nginx.file("/se-ban-wait/f1")));
        } finally {
            given().auth().oauth2(admin()).queryParam("storage", "NGX-BAN-WAIT").delete("/ban/se").then().statusCode(204);
        }
    }

    /** FTS3's user ban: the user's unfinished jobs are cancelled ("User banned") and answered, its submissions refused. */
    @Test
    void aBannedUsersJobsAreCancelledAndItsSubmissionsRefused() throws Exception {
        String user = FerryTestResource.token(DevTokens.Claims.of("user-to-ban", "atlas", "transfer:submit"));
        write("/se-a/banned-user/f1", 50_000, 53);
        // held by a wait ban, so that it is still unfinished when its user is banned
        ban("se", "{\"storage\":\"NGX-SLOW\",\"status\":\"wait\",\"allow_submit\":true}").statusCode(200);
        String id;
        try {
            id = submit(user, List.of(file("/se-a/banned-user/f1", "/slow/banned-user/f1", null)), "{}");
            ban("dn", "{\"user_dn\":\"user-to-ban\"}").statusCode(200).body("$", equalTo(List.of(id)));
        } finally {
            given().auth().oauth2(admin()).queryParam("storage", "NGX-SLOW").delete("/ban/se").then().statusCode(204);
        }
        given().auth().oauth2(user).get("/jobs/" + id).then().body("job_state", equalTo("CANCELED"));
        assertEquals("User banned", files(user, id).getString("[0].reason"));
        given().auth().oauth2(admin()).get("/ban/dn").then().statusCode(200).body("dn", hasItem("user-to-ban"));
        given().auth().oauth2(user).contentType(ContentType.JSON).body("{\"files\":[" + file("/se-a/banned-user/f1", "/se-b/banned-user/f1", null) + "]}")
                .post("/jobs").then().statusCode(403);
        // an administrator cannot ban itself
        ban("dn", "{\"user_dn\":\"test-user\"}").statusCode(409);
        given().auth().oauth2(admin()).queryParam("user_dn", "user-to-ban").delete("/ban/dn").then().statusCode(204);
        submit(user, List.of(file("/se-a/banned-user/f1", "/se-b/banned-user/f1", null)), "{}");
    }
}
