package io.ferry.identity.security;

import javax.net.ssl.X509TrustManager;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;

/**
 * The TLS server's trust manager for client certificates: it lets every client chain through the handshake, which
 * still proves that the client holds the leaf's private key. {@link GridAuthenticationMechanism} then validates the
 * chain (canl, VOMS) for each request, so that a refused proxy (expired, revoked, untrusted CA) is a 401 whose
 * problem document says why, not a handshake failure the client cannot explain. JSSE's own PKIX checks would also
 * refuse every proxy, whose issuer is not a CA.
 */
public final class GridClientTrust implements X509TrustManager {

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        if (chain == null || chain.length == 0) {
            throw new CertificateException("no client certificate");
        }
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        throw new CertificateException("GridClientTrust only serves a TLS server");
    }

    /** No CA names in the certificate request: clients send whichever certificate or proxy they were given. */
    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return new X509Certificate[0];
    }
}
