package io.ferry.cli.auth;

import javax.net.ssl.SSLContext;
import java.time.Instant;
import java.util.Optional;

/**
 * What a call presents: a bearer token (sent in {@code Authorization}), or an X.509 proxy presented as the TLS
 * client certificate; {@code source} says where it was found and {@code expires} until when it is valid (a token's
 * {@code exp}, the proxy chain's earliest end), for {@code ferry whoami}.
 */
public record Credential(Optional<String> bearer, Optional<SSLContext> sslContext, String source, Optional<Instant> expires) {

    public static Credential token(String token, String source) {
        return new Credential(Optional.of(token), Optional.empty(), source, JwtExpiry.of(token));
    }

    public static Credential proxy(SSLContext context, String source, Instant expires) {
        return new Credential(Optional.empty(), Optional.of(context), source, Optional.of(expires));
    }

    /** No credential: the call goes out anonymous (public reads; a protected one answers 401). */
    public static Credential none() {
        return new Credential(Optional.empty(), Optional.empty(), "no token or proxy found", Optional.empty());
    }

    public boolean isProxy() {
        return sslContext.isPresent() && bearer.isEmpty();
    }
}
