package io.ferry.identity.security;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;

@QuarkusTest
@QuarkusTestResource(IssuerFixture.class)
class GridAuthenticationTest {

    @Test
    void aWlcgTokenIsTheCallerWithItsVoAndRoles() throws Exception {
        String token = IssuerFixture.token(List.of("/atlas", "/atlas/production"), Instant.now());

        given().auth().oauth2(token).get("/identity-test/whoami").then().statusCode(200)
                .body("subject", equalTo("alice-sub"))
                .body("vos", equalTo(List.of("atlas")))
                .body("method", equalTo("OAUTH2"))
                .body("roles", hasItems("transfer:read", "transfer:submit"));
        given().auth().oauth2(token).get("/identity-test/submit").then().statusCode(200);
    }

    @Test
    void aTokenWithoutTheProductionGroupMayNotSubmit() throws Exception {
        String token = IssuerFixture.token(List.of("/atlas"), Instant.now());

        given().auth().oauth2(token).get("/identity-test/submit").then().statusCode(403);
    }

    @Test
    void anExpiredTokenIsA401ThatSaysSo() throws Exception {
        String token = IssuerFixture.token(List.of("/atlas"), Instant.now().minus(Duration.ofHours(3)));

        given().auth().oauth2(token).get("/identity-test/whoami").then().statusCode(401)
                .contentType("application/problem+json")
                .header("WWW-Authenticate", "Bearer")
                .body("code", equalTo("TOKEN_EXPIRED"))
                .body("detail", containsString("expired at"));
    }

    @Test
    void aTokenOfAnUnknownIssuerIsA401ThatSaysSo() {
        String unsigned = "eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJodHRwczovL2V2aWwuZXhhbXBsZS5vcmcvIn0.c2ln";

        given().auth().oauth2(unsigned).get("/identity-test/whoami").then().statusCode(401)
                .body("code", equalTo("TOKEN_UNKNOWN_ISSUER"));
    }

    @Test
    void noCredentialIsAnonymous() {
        given().get("/identity-test/whoami").then().statusCode(401).body("code", equalTo("UNAUTHENTICATED"));
    }
}
