package io.ferry.movers;

import java.util.Objects;

/** A bearer token sent as {@code Authorization: Bearer …} to one SE (or, for a pull, passed on to the puller). */
public record BearerToken(String token) implements StorageCredential {

    public BearerToken {
        Objects.requireNonNull(token, "token");
        if (token.isBlank() || token.chars().anyMatch(c -> c < 0x21 || c > 0x7e)) {
            // A header value with spaces or controls would let one file's token split the request.
            throw new IllegalArgumentException("a bearer token is one run of visible ASCII characters");
        }
    }

    /** The header value. */
    public String authorization() {
        return "Bearer " + token;
    }

    @Override
    public String toString() {
        return "BearerToken[redacted]";
    }
}
