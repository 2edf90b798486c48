package io.ferry.scheduler.submission;

import io.ferry.problem.Problem;
import io.ferry.problem.ProblemException;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code files[].source_tokens} / {@code destination_tokens} as Rucio sends them (one token per source, one per
 * destination): read with their file, and every wrong shape refused with its field, never quoting a token.
 */
class FileTokensTest {

    static String jwt(String payload) {
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        return b64.encodeToString("{\"alg\":\"RS256\"}".getBytes(StandardCharsets.UTF_8)) + "."
                + b64.encodeToString(payload.getBytes(StandardCharsets.UTF_8)) + "." + b64.encodeToString("signature".getBytes(StandardCharsets.UTF_8));
    }

    static final long IN_AN_HOUR = Instant.now().getEpochSecond() + 3600;
    static final String READ = jwt("{\"iss\":\"https://iam.example/\",\"exp\":" + IN_AN_HOUR + ",\"scope\":\"storage.read:/\"}");
    static final String READ_2 = jwt("{\"iss\":\"https://iam.example/\",\"exp\":" + IN_AN_HOUR + ",\"scope\":\"storage.read:/data\"}");
    static final String MODIFY = jwt("{\"iss\":\"https://iam.example/\",\"exp\":" + IN_AN_HOUR + ",\"scope\":\"storage.modify:/\"}");

    static String body(String tokens) {
        return "{\"files\":[{\"sources\":[\"https://ral.example/data/f1\",\"https://bnl.example/data/f1\"],"
                + "\"destinations\":[\"https://cern.example/eos/f1\"]" + tokens + "}]}";
    }

    static List<Problem.FieldError> refused(String tokens) {
        ProblemException e = assertThrows(ProblemException.class, () -> SubmissionTest.parse(body(tokens)), tokens);
        assertEquals(400, e.problem().status());
        assertEquals("INVALID_JOB", e.problem().code());
        for (String t : List.of(READ, READ_2, MODIFY)) {
            assertFalse(e.problem().toString().contains(t), "the refusal quotes a token: " + e.problem());
        }
        return e.problem().errors();
    }

    static List<String> fields(String tokens) {
        return refused(tokens).stream().map(Problem.FieldError::field).toList();
    }

    @Test
    void oneTokenPerSourceAndPerDestinationGoWithTheirFile() {
        Submission s = SubmissionTest.parse(body(",\"source_tokens\":[\"" + READ + "\",\"" + READ_2 + "\"],\"destination_tokens\":[\"" + MODIFY + "\"]"));
        FileTokens t = s.files().get(0).tokens();
        assertEquals(READ, t.source(0));
        assertEquals(READ_2, t.source(1));
        assertEquals(MODIFY, t.destination());
        assertEquals(Instant.ofEpochSecond(IN_AN_HOUR), FileTokens.expiry(READ));
        assertFalse(s.toString().contains(READ) || s.toString().contains(MODIFY), "a submission never prints its tokens: " + s);
    }

    @Test
    void aFileWithoutTokensHasNoneAndNullListsCountAsAbsent() {
        assertNull(SubmissionTest.parse(body("")).files().get(0).tokens());
        assertNull(SubmissionTest.parse(body(",\"source_tokens\":null,\"destination_tokens\":null")).files().get(0).tokens());
    }

    @Test
    void bothListsComeTogetherWithOneTokenPerUrl() {
        assertEquals(List.of("files[0].destination_tokens"), fields(",\"source_tokens\":[\"" + READ + "\",\"" + READ_2 + "\"]"));
        assertEquals(List.of("files[0].source_tokens"), fields(",\"destination_tokens\":[\"" + MODIFY + "\"]"));
        // one token for two sources (FTS3 refuses it too)
        assertEquals(List.of("files[0].source_tokens"), fields(",\"source_tokens\":[\"" + READ + "\"],\"destination_tokens\":[\"" + MODIFY + "\"]"));
        assertEquals(List.of("files[0].destination_tokens"), fields(",\"source_tokens\":[\"" + READ + "\",\"" + READ + "\"],\"destination_tokens\":[]"));
        // a single token instead of a list
        assertEquals(List.of("files[0].source_tokens"), fields(",\"source_tokens\":\"" + READ + "\",\"destination_tokens\":[\"" + MODIFY + "\"]"));
    }

    @Test
    void eachTokenMustBeAnUnexpiredJwtNamingItsIssuer() {
        String expired = jwt("{\"iss\":\"https://iam.example/\",\"exp\":" + (Instant.now().getEpochSecond() - 60) + "}");
        String noIssuer = jwt("{\"exp\":" + IN_AN_HOUR + "}");
        String noExpiry = jwt("{\"iss\":\"https://iam.example/\"}");
        String notJson = READ.substring(0, READ.indexOf('.')) + ".bm90IGpzb24." + "c2ln";
        for (String[] c : new String[][]{{expired, "expired"}, {noIssuer, "issuer"}, {noExpiry, "expiry"}, {"macaroon-or-opaque", "not a JWT"},
                {notJson, "not a JWT"}, {READ + " injected", "not a JWT"}, {READ + "\\r\\nX-Evil: 1", "not a JWT"}, {"", "non-empty"}}) {
            List<Problem.FieldError> errors = refused(",\"source_tokens\":[\"" + READ + "\",\"" + c[0] + "\"],\"destination_tokens\":[\"" + MODIFY + "\"]");
            assertEquals(List.of("files[0].source_tokens[1]"), errors.stream().map(Problem.FieldError::field).toList(), c[0]);
            assertTrue(errors.get(0).message().contains(c[1]), errors.get(0).message());
        }
        assertEquals(List.of("files[0].destination_tokens[0]"), fields(",\"source_tokens\":[\"" + READ + "\",\"" + READ + "\"],\"destination_tokens\":[42]"));
        assertEquals(List.of("files[0].destination_tokens[0]"), fields(",\"source_tokens\":[\"" + READ + "\",\"" + READ + "\"],\"destination_tokens\":[\""
                + jwt("{\"iss\":\"x\",\"exp\":" + IN_AN_HOUR + ",\"pad\":\"" + "a".repeat(FileTokens.MAX_LENGTH) + "\"}") + "\"]"));
    }
}
