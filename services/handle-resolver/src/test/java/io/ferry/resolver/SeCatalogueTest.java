package io.ferry.resolver;

import io.ferry.dev.DevTokens;
import io.ferry.dev.FerryTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The resolver's copy of the SE catalogue: fetched with the service token, kept when the scheduler is away. */
@QuarkusTest
@WithTestResource(FerryTestResource.class)
@WithTestResource(SchedulerStandIn.class)
class SeCatalogueTest {

    static String operator() {
        return FerryTestResource.token(null, "transfer:admin");
    }

    @Test
    void catalogueIsFetchedWithTheServiceTokenAndKeptWhenTheSchedulerIsAway() {
        SchedulerStandIn.up = true;
        given().auth().oauth2(operator()).get("/storage-elements").then().statusCode(200)
                .body("basis", equalTo("live")).body("endpoints[0].name", equalTo("RAL-ECHO"));
        assertEquals("Bearer resolver-service-token", SchedulerStandIn.LAST_AUTHORIZATION.get());
        SchedulerStandIn.up = false;
        try {
            given().auth().oauth2(operator()).get("/storage-elements").then().statusCode(200)
                    .body("basis", equalTo("stale")).body("endpoints[0].baseUrls.https", equalTo("https://echo.ral.example/atlas"));
        } finally {
            SchedulerStandIn.up = true;
        }
    }

    /** The catalogue carries base URLs and per-VO storage rights: only operators read the resolver's copy. */
    @Test
    void theCatalogueIsReadByOperatorsOnly() {
        given().get("/storage-elements").then().statusCode(401).contentType("application/problem+json");
        given().auth().oauth2("not-a-token").get("/storage-elements").then().statusCode(401).contentType("application/problem+json");
        String foreign = FerryTestResource.token(DevTokens.Claims.of("mallory", null, "handles:admin")
                .withIssuer("https://elsewhere.example/issuer"));
        given().auth().oauth2(foreign).get("/storage-elements").then().statusCode(401).contentType("application/problem+json")
                .body("code", equalTo("TOKEN_UNKNOWN_ISSUER"));
        given().auth().oauth2(FerryTestResource.token("atlas", "handles:write transfer:submit")).get("/storage-elements")
                .then().statusCode(403).contentType("application/problem+json");
        given().auth().oauth2(FerryTestResource.token(null, "handles:admin")).get("/storage-elements").then().statusCode(200)
                .body("endpoints[0].name", equalTo("RAL-ECHO"));
        given().auth().oauth2(operator()).get("/storage-elements").then().statusCode(200);
    }

    @Test
    void forcedRefreshNeedsTheAdminScope() {
        given().post("/storage-elements/refresh").then().statusCode(401).contentType("application/problem+json");
        given().auth().oauth2(FerryTestResource.token("atlas", "handles:write")).post("/storage-elements/refresh")
                .then().statusCode(403).contentType("application/problem+json");
        given().auth().oauth2(FerryTestResource.token(null, "handles:admin")).post("/storage-elements/refresh")
                .then().statusCode(200).body("basis", equalTo("live"));
    }

    @Test
    void readinessIncludesTheDatabase() {
        given().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
    }
}
