package io.ferry.resolver.authentication;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SecretKeysTest {

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void keysAreStoredAsCnriHashesThemLowerCaseHexSha1() {
        // sha1("password"), as hdl-admintool stores a key with "hash" ticked
        assertEquals("5baa61e4c9b93f3f0682250b6cf8331b7ee68fd8", SecretKeys.stored(b("password")));
        assertEquals("5baa61e4c9b93f3f0682250b6cf8331b7ee68fd8", SecretKeys.stored(b("5baa61e4c9b93f3f0682250b6cf8331b7ee68fd8")));
        assertFalse(SecretKeys.isHash("5BAA61E4C9B93F3F0682250B6CF8331B7EE68FD8"));
    }

    @Test
    void aPresentedKeyOpensItsHashOrItsClearCopy() {
        assertTrue(SecretKeys.verifies(b(SecretKeys.hash(b("s3cret"))), b("s3cret")));
        assertTrue(SecretKeys.verifies(b("s3cret"), b("s3cret")));
        assertFalse(SecretKeys.verifies(b(SecretKeys.hash(b("s3cret"))), b("s3cret ")));
        assertFalse(SecretKeys.verifies(b("s3cret"), b("S3cret")));
        assertFalse(SecretKeys.verifies(b(""), b("x")));
    }
}
