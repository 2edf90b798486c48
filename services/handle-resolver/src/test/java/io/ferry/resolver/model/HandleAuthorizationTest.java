package io.ferry.resolver.model;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HandleAuthorizationTest {

    @Test
    void readsCnrisHeaderWithQuotedAndBareValues() {
        HandleAuthorization a = HandleAuthorization.parse("Handle sessionId=\"abc\", ID=\"300%3A20.500.1%2FUSER01\",type=HS_SECKEY ,  alg=\"HMAC-SHA256\", "
                + "cnonce=\"Y24=\", signature=\"c2ln\\\"x\"");
        assertEquals("abc", a.sessionId());
        assertEquals("300:20.500.1/USER01", a.get("id"));
        assertEquals("HS_SECKEY", a.get("TYPE"));
        assertEquals("c2ln\"x", a.get("signature"));
        assertTrue(a.authenticating());
        assertFalse(a.incomplete());
    }

    @Test
    void aSessionOnlyHeaderDoesNotAuthenticate() {
        HandleAuthorization a = HandleAuthorization.parse("handle sessionId=abc");
        assertFalse(a.authenticating());
        assertTrue(a.incomplete());
        assertFalse(a.unknownVersion());
        assertTrue(HandleAuthorization.parse("Handle sessionId=abc, version=1").unknownVersion());
    }

    @Test
    void malformedHeadersAreRefused() {
        assertNull(HandleAuthorization.parse("Handle"));
        assertNull(HandleAuthorization.parse("Handle sessionId=abc id=x"));
        assertNull(HandleAuthorization.parse("Handle sessionId=\"abc"));
        assertNull(HandleAuthorization.parse("Handlebar sessionId=abc"));
        assertNull(HandleAuthorization.parse("Basic dXNlcjpwdw=="));
    }

    @Test
    void theHeaderWinsOverBodyFields() {
        HandleAuthorization a = HandleAuthorization.parse("Handle sessionId=abc").withDefaults(Map.of("sessionId", "other", "cnonce", "Y24="));
        assertEquals("abc", a.sessionId());
        assertEquals("Y24=", a.get("CNONCE"));
    }
}
