package io.ferry.movers;

import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedKeyManager;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How https:// connections toward storage are made: with the mover's own TLS material (its CAs, and its host
 * certificate if it has one), or presenting a copy's {@link ClientCertificate} (a user's delegated proxy) over the
 * same trust. The per-certificate socket factories are kept for the certificates in use.
 */
public final class StorageTls {

    private static final int KEPT = 256;

    private final SSLSocketFactory service;
    private final TrustManager[] trust;
    private final Map<ClientCertificate, SSLSocketFactory> presenting = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<ClientCertificate, SSLSocketFactory> eldest) {
            return size() > KEPT;
        }
    };

    /**
     * @param service the mover's own sockets
     * @param trust   whom the mover trusts (null: the JDK's CAs); per-copy certificates are presented under it too
     */
    StorageTls(SSLSocketFactory service, TrustManager[] trust) {
        this.service = service;
        this.trust = trust;
    }

    /** The mover's own sockets only, e.g. {@link SSLSocketFactory#getDefault()}; copies' certificates trust the JDK's CAs. */
    public static StorageTls of(SSLSocketFactory service) {
        return new StorageTls(service, null);
    }

    /**
     * Whom the mover trusts, for protocols that check a server's certificate outside a TLS handshake (XRootD's gsi
     * sends it inside its own exchange): the configured grid CAs and the JDK's, or only the JDK's.
     */
    public javax.net.ssl.X509TrustManager serverTrust() throws GeneralSecurityException {
        TrustManager[] managers = trust;
        if (managers == null) {
            javax.net.ssl.TrustManagerFactory tmf = javax.net.ssl.TrustManagerFactory.getInstance(javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
            tmf.init((java.security.KeyStore) null);
            managers = tmf.getTrustManagers();
        }
        for (TrustManager m : managers) {
            if (m instanceof javax.net.ssl.X509TrustManager x) {
                return x;
            }
        }
        throw new GeneralSecurityException("no X.509 trust manager");
    }

    /** Sockets with the mover's own identity. */
    public SSLSocketFactory service() {
        return service;
    }

    /** Sockets that present {@code certificate} (whatever CAs the SE names) and trust what the mover trusts. */
    public synchronized SSLSocketFactory presenting(ClientCertificate certificate) throws GeneralSecurityException {
        SSLSocketFactory f = presenting.get(certificate);
        if (f == null) {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(new KeyManager[] {new OneCertificate(certificate)}, trust, null);
            f = context.getSocketFactory();
            presenting.put(certificate, f);
        }
        return f;
    }

    /**
     * Always the one client certificate: the JDK's key managers would drop a proxy chain whose issuers the server did
     * not list (an SE lists CAs; a proxy's direct issuer is the user's certificate).
     */
    private static final class OneCertificate extends X509ExtendedKeyManager {
        private static final String ALIAS = "copy";
        private final ClientCertificate certificate;

        OneCertificate(ClientCertificate certificate) {
            this.certificate = certificate;
        }

        @Override
        public String[] getClientAliases(String keyType, Principal[] issuers) {
            return new String[] {ALIAS};
        }

        @Override
        public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
            return ALIAS;
        }

        @Override
        public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
            return ALIAS;
        }

        @Override
        public String[] getServerAliases(String keyType, Principal[] issuers) {
            return null;
        }

        @Override
        public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
            return null;
        }

        @Override
        public X509Certificate[] getCertificateChain(String alias) {
            return certificate.chain().toArray(X509Certificate[]::new);
        }

        @Override
        public PrivateKey getPrivateKey(String alias) {
            return certificate.key();
        }
    }
}
