package io.ferry.scheduler.credentials.delegation;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPairGenerator;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.spec.SecretKeySpec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

class DelegationCipherTest {

    /** A private key made for this run, in PEM, as a delegation's pending key is stored. */
    private static byte[] freshKeyPem() throws GeneralSecurityException {
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
        g.initialize(2048);
        String body = Base64.getMimeEncoder(64, new byte[]{'\n'}).encodeToString(g.generateKeyPair().getPrivate().getEncoded());
        String kind = "PRIVATE" + " KEY";
        return ("-----BEGIN " + kind + "-----\n" + body + "\n-----END " + kind + "-----\n").getBytes(StandardCharsets.US_ASCII);
    }

    private static DelegationCipher cipher(int fill) {
        byte[] key = new byte[32];
        Arrays.fill(key, (byte) fill);
        return new DelegationCipher(new SecretKeySpec(key, "AES"));
    }

    @Test
    void aSealedValueOpensOnlyForItsRowColumnAndKey() throws Exception {
        DelegationCipher c = cipher(7);
        byte[] plain = freshKeyPem();
        String row = DelegationCipher.row("0123456789abcdef", "/DC=org/CN=alice");

        byte[] sealed = c.encrypt(plain, row, DelegationCipher.PROXY_COLUMN);
        assertFalse(new String(sealed, StandardCharsets.ISO_8859_1).contains("PRIVATE"));
        assertArrayEquals(plain, c.decrypt(sealed, row, DelegationCipher.PROXY_COLUMN));
        assertFalse(Arrays.equals(sealed, c.encrypt(plain, row, DelegationCipher.PROXY_COLUMN)), "a fresh nonce each time");

        assertThrows(GeneralSecurityException.class, () -> c.decrypt(sealed, DelegationCipher.row("0123456789abcdef", "/DC=org/CN=bob"),
                DelegationCipher.PROXY_COLUMN), "another owner's row");
        assertThrows(GeneralSecurityException.class, () -> c.decrypt(sealed, row, DelegationCipher.KEY_COLUMN), "another column");
        assertThrows(GeneralSecurityException.class, () -> cipher(8).decrypt(sealed, row, DelegationCipher.PROXY_COLUMN), "another key");
        byte[] tampered = sealed.clone();
        tampered[tampered.length - 1] ^= 1;
        assertThrows(GeneralSecurityException.class, () -> c.decrypt(tampered, row, DelegationCipher.PROXY_COLUMN), "a changed byte");
    }
}
