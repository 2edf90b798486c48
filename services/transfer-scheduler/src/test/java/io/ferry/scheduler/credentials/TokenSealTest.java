package io.ferry.scheduler.credentials;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Storage tokens sealed at rest: they open only with the same key, for the same job and number, and unaltered. */
class TokenSealTest {

    static String randomKey() {
        byte[] k = new byte[32];
        new SecureRandom().nextBytes(k);
        return Base64.getEncoder().encodeToString(k);
    }

    static final String TOKEN = "eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJodHRwczovL2lhbSJ9.c2lnbmF0dXJl";

    @Test
    void aSealedTokenOpensWithItsKeyJobAndNumberOnly() throws Exception {
        String key = randomKey();
        TokenSeal seal = new TokenSeal(TokenSeal.load(key, false));
        UUID job = UUID.randomUUID();
        byte[] sealed = seal.seal(TOKEN, job, 3);
        assertFalse(new String(sealed, StandardCharsets.ISO_8859_1).contains("eyJ"), "the stored form holds no token text");
        assertEquals(TOKEN, seal.open(sealed, job, 3));
        assertEquals(TOKEN, new TokenSeal(TokenSeal.load(key, false)).open(sealed, job, 3), "another replica with the same key opens it");
        assertFalse(Arrays.equals(sealed, seal.seal(TOKEN, job, 3)), "a fresh nonce each time");

        assertThrows(TokenSeal.SealBroken.class, () -> seal.open(sealed, job, 4));
        assertThrows(TokenSeal.SealBroken.class, () -> seal.open(sealed, UUID.randomUUID(), 3));
        assertThrows(TokenSeal.SealBroken.class, () -> new TokenSeal(TokenSeal.load(randomKey(), false)).open(sealed, job, 3));
        byte[] altered = sealed.clone();
        altered[altered.length - 1] ^= 1;
        assertThrows(TokenSeal.SealBroken.class, () -> seal.open(altered, job, 3));
        assertThrows(TokenSeal.SealBroken.class, () -> seal.open(new byte[5], job, 3));
    }

    @Test
    void withoutAKeyOnlyDevAndTestStartAndABadKeyIsRefused() {
        IllegalStateException missing = assertThrows(IllegalStateException.class, () -> TokenSeal.load(null, false));
        assertTrue(missing.getMessage().contains("FERRY_SCHEDULER_STORAGE_TOKENS_KEY"), missing.getMessage());
        assertThrows(IllegalStateException.class, () -> TokenSeal.load(" ", false));
        assertNotNull(TokenSeal.load(null, true));
        assertThrows(IllegalStateException.class, () -> TokenSeal.load("not base64!", true));
        IllegalStateException shortKey = assertThrows(IllegalStateException.class,
                () -> TokenSeal.load(Base64.getEncoder().encodeToString(new byte[16]), false));
        assertTrue(shortKey.getMessage().contains("32 bytes"), shortKey.getMessage());
    }
}
