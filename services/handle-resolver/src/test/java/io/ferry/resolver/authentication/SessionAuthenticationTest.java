package io.ferry.resolver.authentication;

import io.ferry.resolver.model.HandleAuthorization;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class SessionAuthenticationTest {

    private static HandleAuthorization alg(String alg) {
        return HandleAuthorization.parse("Handle alg=\"" + alg + "\"");
    }

    @Test
    void secretKeyAnswersCarryCnrisMacCode() {
        byte[] sig = {9, 8};
        assertArrayEquals(new byte[]{0x13, 9, 8}, SessionAuthentication.answer("HS_SECKEY", alg("HMAC-SHA256"), sig));
        assertArrayEquals(new byte[]{0x12, 9, 8}, SessionAuthentication.answer("HS_SECKEY", alg("hmacsha1"), sig));
        assertArrayEquals(new byte[]{3, 9, 8}, SessionAuthentication.answer("HS_SECKEY", alg("SHA-2"), sig));
        assertArrayEquals(new byte[]{2, 9, 8}, SessionAuthentication.answer("HS_SECKEY", alg("SHA"), sig));
        assertNull(SessionAuthentication.answer("HS_SECKEY", alg("ROT13"), sig));
        assertNull(SessionAuthentication.answer("HS_OTHER", alg("SHA1"), sig));
    }

    @Test
    void pbkdf2AnswersEncodeSaltIterationsAndLength() {
        HandleAuthorization a = HandleAuthorization.parse("Handle alg=PBKDF2-HMAC-SHA1, salt=\"AQI=\", iterations=10000, length=160");
        byte[] answer = SessionAuthentication.answer("HS_SECKEY", a, new byte[]{7});
        ByteBuffer in = ByteBuffer.wrap(answer);
        assertEquals(0x22, in.get());
        assertEquals(2, in.getInt());
        assertEquals(1, in.get());
        assertEquals(2, in.get());
        assertEquals(10000, in.getInt());
        assertEquals(160, in.getInt());
        assertEquals(1, in.getInt());
        assertEquals(7, in.get());
        assertEquals(0, in.remaining());
    }

    @Test
    void publicKeyAnswersNameTheHash() {
        ByteBuffer in = ByteBuffer.wrap(SessionAuthentication.answer("HS_PUBKEY", alg("SHA256"), new byte[]{5}));
        byte[] name = new byte[in.getInt()];
        in.get(name);
        assertEquals("SHA-256", new String(name, StandardCharsets.US_ASCII));
        assertEquals(1, in.getInt());
        assertEquals(5, in.get());
        assertNull(SessionAuthentication.answer("HS_PUBKEY", alg("MD5"), new byte[]{5}));
    }

    @Test
    void base64AsCommonsCodecReadsIt() {
        assertArrayEquals(new byte[]{(byte) 0xfb, (byte) 0xff}, SessionAuthentication.base64("-_8"));
        assertArrayEquals(new byte[]{(byte) 0xfb, (byte) 0xff}, SessionAuthentication.base64("+/8="));
        assertNull(SessionAuthentication.base64("!!"));
    }
}
