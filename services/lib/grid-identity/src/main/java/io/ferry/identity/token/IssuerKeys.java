package io.ferry.identity.token;

import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One issuer's public keys, fetched from its JWKS location and kept for {@code maxAge}. A token signed with a key
 * this copy does not know (its issuer rotated keys) makes it fetch again at once, but at most once per
 * {@code minRefetchInterval}, so tokens with made-up key ids cannot turn a service into a flood of requests
 * toward the issuer. A failed fetch keeps the keys already known.
 */
public final class IssuerKeys {

    private static final Logger LOG = Logger.getLogger(IssuerKeys.class.getName());
    private static final int MAX_JWKS_BYTES = 1 << 20;
    private static final Duration FETCH_TIMEOUT = Duration.ofSeconds(10);

    private final URI location;
    private final Duration maxAge;
    private final Duration minRefetchInterval;
    private final HttpClient http;
    private final Clock clock;

    private List<JWK> keys;
    private Instant fetchedAt = Instant.MIN;
    private Instant lastAttempt = Instant.MIN;
    private int fetches;

    public IssuerKeys(URI location, Duration maxAge, Duration minRefetchInterval, HttpClient http, Clock clock) {
        this.location = location;
        this.maxAge = maxAge;
        this.minRefetchInterval = minRefetchInterval;
        this.http = http;
        this.clock = clock;
    }

    /**
     * The keys that may have signed a token with key id {@code kid} (every key when the token names none); empty
     * when no such key is known even after a fresh fetch, or when no key could ever be fetched.
     */
    public synchronized List<JWK> candidates(String kid) {
        Instant now = clock.instant();
        if (keys == null || now.isAfter(fetchedAt.plus(maxAge))) {
            refresh(now);
        }
        List<JWK> found = matching(kid);
        if (found.isEmpty() && kid != null && !now.isBefore(lastAttempt.plus(minRefetchInterval))) {
            refresh(now);
            found = matching(kid);
        }
        return found;
    }

    /** Whether any key set was ever fetched: without one, a refusal is the issuer's fault, not the token's. */
    public synchronized boolean available() {
        return keys != null;
    }

    /** How many fetches were made, successful or not (for tests of the rate limit). */
    public synchronized int fetches() {
        return fetches;
    }

    private List<JWK> matching(String kid) {
        if (keys == null) {
            return List.of();
        }
        return kid == null ? keys : keys.stream().filter(k -> kid.equals(k.getKeyID())).toList();
    }

    private void refresh(Instant now) {
        if (now.isBefore(lastAttempt.plus(minRefetchInterval))) {
            return;
        }
        lastAttempt = now;
        fetches++;
        try {
            keys = parse(fetch());
            fetchedAt = now;
        } catch (Exception e) {
            LOG.log(Level.WARNING, "cannot fetch the keys at {0}: {1}", new Object[] {location, e.toString()});
        }
    }

    private String fetch() throws IOException, InterruptedException {
        if ("file".equals(location.getScheme())) {
            return Files.readString(Path.of(location), StandardCharsets.UTF_8);
        }
        HttpRequest request = HttpRequest.newBuilder(location).timeout(FETCH_TIMEOUT)
                .header("Accept", "application/jwk-set+json, application/json").GET().build();
        HttpResponse<InputStream> response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream body = response.body()) {
            if (response.statusCode() != 200) {
                throw new IOException("HTTP " + response.statusCode());
            }
            byte[] bytes = body.readNBytes(MAX_JWKS_BYTES + 1);
            if (bytes.length > MAX_JWKS_BYTES) {
                throw new IOException("key set larger than " + MAX_JWKS_BYTES + " bytes");
            }
            return new String(bytes, StandardCharsets.UTF_8);
        }
    }

    /** A JWKS document, or one PEM public key (Ferry's dev issuer keeps its key so). */
    static List<JWK> parse(String text) throws Exception {
        String trimmed = text.strip();
        if (trimmed.startsWith("-----BEGIN PUBLIC KEY-----")) {
            String base64 = trimmed.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
            RSAPublicKey key = (RSAPublicKey) KeyFactory.getInstance("RSA")
                    .generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(base64)));
            return List.of(new RSAKey.Builder(key).build());
        }
        // Keys marked for encryption never verify a signature.
        return JWKSet.parse(trimmed).getKeys().stream().filter(k -> k.getKeyUse() == null || KeyUse.SIGNATURE.equals(k.getKeyUse()))
                .map(JWK::toPublicJWK).toList();
    }

    /** The location these keys come from, for messages. */
    public URI location() {
        return location;
    }
}
