package io.ferry.identity.security;

import io.quarkus.security.identity.request.BaseAuthenticationRequest;

import java.security.cert.X509Certificate;

/** What the caller presented: a bearer token, or the client certificate chain of its TLS connection. */
public final class GridCredentialRequest extends BaseAuthenticationRequest {

    private final String bearerToken;
    private final X509Certificate[] chain;

    private GridCredentialRequest(String bearerToken, X509Certificate[] chain) {
        this.bearerToken = bearerToken;
        this.chain = chain;
    }

    public static GridCredentialRequest bearer(String token) {
        return new GridCredentialRequest(token, null);
    }

    public static GridCredentialRequest certificates(X509Certificate[] chain) {
        return new GridCredentialRequest(null, chain.clone());
    }

    /** The token, or null for a certificate request. */
    public String bearerToken() {
        return bearerToken;
    }

    /** The chain, leaf first, or null for a token request. */
    public X509Certificate[] chain() {
        return chain == null ? null : chain.clone();
    }
}
