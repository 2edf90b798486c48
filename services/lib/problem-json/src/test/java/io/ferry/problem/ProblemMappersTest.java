package io.ferry.problem;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import io.vertx.ext.web.handler.HttpException;
import jakarta.ws.rs.core.Response;
import org.junit.jupiter.api.Test;

import java.net.ConnectException;
import java.util.concurrent.CompletionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProblemMappersTest {

    record Input(String name) {
    }

    private final ProblemMappers mappers = new ProblemMappers();

    @Test
    void anAuthenticationFailureThatSaysWhyIsAnsweredWithItsReason() {
        Problem why = Problem.of(401, "TOKEN_EXPIRED", "the token expired at 2026-01-01T00:00:00Z");
        var failure = new io.quarkus.security.AuthenticationFailedException(why.detail(),
                java.util.Map.of(Problem.AUTHENTICATION_FAILURE_ATTRIBUTE, why));

        Response r = mappers.authenticationFailed(failure, null);
        assertEquals(401, r.getStatus());
        assertEquals("Bearer", r.getHeaderString("WWW-Authenticate"));
        assertEquals("TOKEN_EXPIRED", ((Problem) r.getEntity()).code());
        assertEquals("TOKEN_EXPIRED", RouteFailureHandler.problemFor(failure, 401).code());
        // Without a reason, the generic answer as before.
        assertEquals("UNAUTHENTICATED", RouteFailureHandler.problemFor(new io.quarkus.security.AuthenticationFailedException(), 401).code());
    }

    @Test
    void theDatabaseAwayIsA503WithRetryAfter() {
        Response r = mappers.unexpected(new CompletionException(new ConnectException("Connection refused")), null);
        assertEquals(503, r.getStatus());
        assertEquals("5", r.getHeaderString("Retry-After"));
        assertEquals(Problem.MEDIA_TYPE, r.getMediaType().toString());
        assertEquals("DATABASE_UNAVAILABLE", ((Problem) r.getEntity()).code());
    }

    @Test
    void aNulBytePostgresRefusesIsA400() {
        Response r = mappers.unexpected(new RuntimeException(new java.sql.SQLException("invalid byte sequence", "22021")), null);
        assertEquals(400, r.getStatus());
        assertEquals("INVALID_INPUT", ((Problem) r.getEntity()).code());
    }

    @Test
    void anythingElseIsA500ThatNamesNothing() {
        Response r = mappers.unexpected(new IllegalStateException("secret detail"), null);
        assertEquals(500, r.getStatus());
        Problem p = (Problem) r.getEntity();
        assertEquals("INTERNAL_ERROR", p.code());
        assertTrue(!p.detail().contains("secret"));
    }

    /** Quarkus maps this subclass of JsonProcessingException itself, to a 400 without a body, unless we do. */
    @Test
    void aBodyOfTheWrongJsonTypeIsAProblemNamingTheField() {
        MismatchedInputException e = assertThrows(MismatchedInputException.class,
                () -> new ObjectMapper().readValue("{\"name\":{}}", Input.class));
        Response r = mappers.mismatched(e, null);
        assertEquals(400, r.getStatus());
        Problem p = (Problem) r.getEntity();
        assertEquals("MALFORMED_BODY", p.code());
        assertEquals("name", p.errors().get(0).field());
    }

    @Test
    void aMalformedBodyNamesTheExpectedShapeButNotTheServicesPackages() {
        MismatchedInputException e = assertThrows(MismatchedInputException.class,
                () -> new ObjectMapper().readValue("{\"inputs\":{}}", Outer.class));
        Problem p = (Problem) mappers.mismatched(e, null).getEntity();
        assertTrue(e.getOriginalMessage().contains("io.ferry.problem.ProblemMappersTest$Input"), e.getOriginalMessage());
        assertTrue(!p.detail().contains("io.ferry") && !p.errors().get(0).message().contains("io.ferry"), p.detail());
        assertTrue(p.detail().contains("ProblemMappersTest.Input"), p.detail());
    }

    record Outer(java.util.List<Input> inputs) {
    }

    @Test
    void aServiceProblemWrappedByTheReaderIsAnsweredAsItIs() {
        ProblemException cause = ProblemException.badRequest("body", "must not be null");
        Response r = mappers.web(new jakarta.ws.rs.BadRequestException(cause), null);
        assertEquals(400, r.getStatus());
        assertEquals("INVALID_INPUT", ((Problem) r.getEntity()).code());
    }

    @Test
    void routeFailuresBecomeProblems() {
        assertEquals("BODY_TOO_LARGE", RouteFailureHandler.problemFor(new HttpException(413), -1).code());
        assertEquals(400, RouteFailureHandler.problemFor(null, 400).status());
        assertEquals("DATABASE_UNAVAILABLE", RouteFailureHandler.problemFor(new ConnectException("Connection refused"), 500).code());
        Problem bug = RouteFailureHandler.problemFor(new StringIndexOutOfBoundsException("begin 13, end 12"), 500);
        assertEquals(500, bug.status());
        assertEquals("INTERNAL_ERROR", bug.code());
    }
}
