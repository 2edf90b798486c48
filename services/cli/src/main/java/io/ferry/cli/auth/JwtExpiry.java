package io.ferry.cli.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.time.Instant;
import java.util.Base64;
import java.util.Optional;

/**
 * A JWT's {@code exp}, read from its payload without checking the signature: only to tell people when their token
 * runs out (the services do the checking). Empty for tokens that are not JWTs.
 */
final class JwtExpiry {

    private static final ObjectMapper JSON = new ObjectMapper();

    private JwtExpiry() {
    }

    static Optional<Instant> of(String token) {
        String[] parts = token.split("\\.");
        if (parts.length != 3) {
            return Optional.empty();
        }
        try {
            JsonNode payload = JSON.readTree(Base64.getUrlDecoder().decode(parts[1]));
            return payload.path("exp").canConvertToLong() ? Optional.of(Instant.ofEpochSecond(payload.path("exp").asLong())) : Optional.empty();
        } catch (Exception e) {
            return Optional.empty();
        }
    }
}
