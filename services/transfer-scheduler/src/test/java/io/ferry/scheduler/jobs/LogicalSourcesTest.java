package io.ferry.scheduler.jobs;

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
import java.util.List;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Sources given by name end to end: each replica goes with the name's token, and the next replica is used when the first is gone. */
@QuarkusTest
@TestProfile(EngineFixture.WithEngine.class)
@WithTestResource(value = FerryTestResource.class, scope = TestResourceScope.GLOBAL)
class LogicalSourcesTest extends EngineFixture {

    @Test
    void whenTheFirstSourceIsGoneTheNextReplicaIsUsed() throws Exception {
        String adler = write("/se-c/replica/f1", 120_000, 21);
        String body = "{\"sources\":[\"" + nginx.url("/se-a/replica/missing-f1") + "\",\"" + nginx.url("/se-c/replica/f1") + "\"],"
                + "\"destinations\":[\"" + nginx.url("/se-b/replica/f1") + "\"],\"checksum\":\"ADLER32:" + adler + "\"}";
        String id = submit(vo("atlas"), List.of(body), "{\"verify_checksum\":\"both\"}");
        awaitJob(vo("atlas"), id, Duration.ofSeconds(30), "FINISHED", "FAILED");
        JsonPath f = files(vo("atlas"), id);
        assertEquals("FINISHED", f.getString("[0].file_state"), f.prettify());
        assertEquals("NGX-C", f.getString("[0].source_se"));
        assertEquals(nginx.url("/se-c/replica/f1"), f.getString("[0].source_surl"));
        JsonPath retries = given().auth().oauth2(vo("atlas")).get("/jobs/" + id + "/files/" + f.getLong("[0].file_id") + "/retries")
                .then().statusCode(200).extract().jsonPath();
        assertEquals("SOURCE_NOT_FOUND", retries.getString("[0].error_code"));
        assertTrue(retries.getString("[0].reason").contains("trying the next source"));
        assertArrayEquals(Files.readAllBytes(nginx.file("/se-c/replica/f1")), Files.readAllBytes(nginx.file("/se-b/replica/f1")));
    }

    @Test
    void theTokenGivenForALogicalSourceGoesWithEachOfItsReplicas() throws Exception {
        for (String[] se : new String[][]{{"TOK-A", "/tok-a"}, {"TOK-B", "/tok-b"}}) {
            given().auth().oauth2(admin()).contentType(ContentType.JSON).body("{\"site\":\"TOK-SITE\",\"baseUrls\":{\"http\":\"" + nginx.url(se[1])
                            + "\"},\"access\":{\"open\":true},\"allowServiceIdentity\":false}")
                    .put("/endpoints/" + se[0]).then().statusCode(anyOf(equalTo(200), equalTo(201)));
        }
        String adler = write("/tok-a/handle/f", 30_000, 940);
        // two replicas, the first gone: the second is tried with the same token
        replicaTurls.add(nginx.url("/tok-a/handle/gone"));
        replicaTurls.add(nginx.url("/tok-a/handle/f"));
        try {
            String id = submit(vo("atlas"), List.of("{\"sources\":[\"handle:20.500.1/tokens\"],\"destinations\":[\"" + nginx.url("/tok-b/handle/f")
                    + "\"],\"checksum\":\"ADLER32:" + adler + "\",\"source_tokens\":[\"" + SOURCE_TOKEN + "\"],\"destination_tokens\":[\"" + DEST_TOKEN
                    + "\"]}"), "{\"verify_checksum\":\"both\"}");
            awaitJob(vo("atlas"), id, Duration.ofSeconds(30), "FINISHED", "FAILED");
            JsonPath f = files(vo("atlas"), id);
            assertEquals("FINISHED", f.getString("[0].file_state"), f.prettify());
            assertEquals(nginx.url("/tok-a/handle/f"), f.getString("[0].source_surl"));
            assertArrayEquals(Files.readAllBytes(nginx.file("/tok-a/handle/f")), Files.readAllBytes(nginx.file("/tok-b/handle/f")));
        } finally {
            replicaTurls.clear();
            given().auth().oauth2(admin()).delete("/endpoints/TOK-A");
            given().auth().oauth2(admin()).delete("/endpoints/TOK-B");
        }
    }
}
