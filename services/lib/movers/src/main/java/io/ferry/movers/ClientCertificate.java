package io.ferry.movers;

import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Objects;

/**
 * A client certificate chain and its key, presented in the TLS handshake with one SE: a user's delegated X.509
 * proxy, end-entity first (proxy, then the certificates that issued it).
 */
public record ClientCertificate(PrivateKey key, List<X509Certificate> chain) implements StorageCredential {

    public ClientCertificate {
        Objects.requireNonNull(key, "key");
        chain = List.copyOf(chain);
        if (chain.isEmpty()) {
            throw new IllegalArgumentException("a client certificate needs at least its own certificate");
        }
    }

    /** The subject of the presented certificate (the proxy's DN), for diagnostics. */
    public String subject() {
        return chain.get(0).getSubjectX500Principal().getName();
    }

    @Override
    public String toString() {
        return "ClientCertificate[" + subject() + ", key redacted]";
    }
}
