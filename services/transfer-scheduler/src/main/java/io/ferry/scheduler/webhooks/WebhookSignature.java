package io.ferry.scheduler.webhooks;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;

/**
 * {@code Ferry-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>}: the time is signed with the
 * body so that a receiver can refuse old events replayed (docs/webhooks.md).
 */
public final class WebhookSignature {

    private WebhookSignature() {
    }

    public static String header(String secret, long unixSeconds, byte[] body) {
        return "t=" + unixSeconds + ",v1=" + hmac(secret, unixSeconds, body);
    }

    public static String hmac(String secret, long unixSeconds, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            mac.update((unixSeconds + ".").getBytes(StandardCharsets.US_ASCII));
            return HexFormat.of().formatHex(mac.doFinal(body));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }
}
