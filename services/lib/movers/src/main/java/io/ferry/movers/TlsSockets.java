package io.ferry.movers;

import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The TLS side of the HTTP mover, configured the way grid hosts are: storage endpoints present certificates of the
 * grid's CAs, kept as PEM files in a directory ({@code /etc/grid-security/certificates}), which are trusted besides the
 * JDK's own CAs; and many SEs want the client's certificate too (a host certificate and key, or a proxy file that holds
 * both). Host names are verified as for HTTPS.
 */
public final class TlsSockets {

    private static final Pattern PEM = Pattern.compile("-----BEGIN ([A-Z ]+)-----([A-Za-z0-9+/=\\s]+)-----END \\1-----");
    /** DER of PKCS#8's AlgorithmIdentifier for rsaEncryption with NULL parameters: wraps a PKCS#1 RSA key. */
    private static final byte[] RSA_ALGORITHM = {0x30, 0x0d, 0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00};

    private TlsSockets() {
    }

    /**
     * @param caCertificates    a PEM file or a directory of them (other files there, such as signing policies, are
     *                          skipped): CAs trusted besides the JDK's
     * @param clientCertificate PEM certificate chain presented to SEs that ask for one
     * @param clientKey         its PEM private key (PKCS#8, or PKCS#1 RSA); when absent, looked for in the certificate
     *                          file (a grid proxy holds both)
     */
    public static SSLSocketFactory factory(Optional<Path> caCertificates, Optional<Path> clientCertificate, Optional<Path> clientKey)
            throws IOException, GeneralSecurityException {
        return storageTls(caCertificates, clientCertificate, clientKey).service();
    }

    /** {@link #factory}'s sockets, and sockets presenting a copy's own certificate under the same trust. */
    public static StorageTls storageTls(Optional<Path> caCertificates, Optional<Path> clientCertificate, Optional<Path> clientKey)
            throws IOException, GeneralSecurityException {
        if (caCertificates.isEmpty() && clientCertificate.isEmpty()) {
            return StorageTls.of((SSLSocketFactory) SSLSocketFactory.getDefault());
        }
        TrustManager[] trust = null;
        if (caCertificates.isPresent()) {
            trust = new TrustManager[] {new EitherTrust(defaultTrust(null), defaultTrust(caStore(caCertificates.get())))};
        }
        KeyManager[] keys = null;
        if (clientCertificate.isPresent()) {
            keys = clientKeys(clientCertificate.get(), clientKey.orElse(clientCertificate.get()));
        }
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys, trust, null);
        return new StorageTls(context.getSocketFactory(), trust);
    }

    private static KeyStore caStore(Path where) throws IOException, GeneralSecurityException {
        List<Path> files;
        if (Files.isDirectory(where)) {
            try (Stream<Path> list = Files.list(where)) {
                files = list.filter(Files::isRegularFile).sorted().toList();
            }
        } else {
            files = List.of(where);
        }
        KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
        store.load(null, null);
        int n = 0;
        for (Path f : files) {
            for (X509Certificate c : certificates(Files.readString(f, StandardCharsets.ISO_8859_1))) {
                store.setCertificateEntry("ca-" + n++, c);
            }
        }
        if (n == 0) {
            throw new GeneralSecurityException("no PEM certificate in " + where);
        }
        return store;
    }

    private static KeyManager[] clientKeys(Path certificateFile, Path keyFile) throws IOException, GeneralSecurityException {
        List<X509Certificate> chain = certificates(Files.readString(certificateFile, StandardCharsets.ISO_8859_1));
        if (chain.isEmpty()) {
            throw new GeneralSecurityException("no PEM certificate in " + certificateFile);
        }
        PrivateKey key = privateKey(Files.readString(keyFile, StandardCharsets.ISO_8859_1), keyFile);
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        char[] none = new char[0];
        store.setKeyEntry("client", key, none, chain.toArray(new Certificate[0]));
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(store, none);
        return kmf.getKeyManagers();
    }

    static List<X509Certificate> certificates(String pem) throws CertificateException {
        CertificateFactory cf = CertificateFactory.getInstance("X.509");
        List<X509Certificate> out = new ArrayList<>();
        Matcher m = PEM.matcher(pem);
        while (m.find()) {
            if (m.group(1).equals("CERTIFICATE")) {
                out.add((X509Certificate) cf.generateCertificate(new ByteArrayInputStream(decode(m.group(2)))));
            }
        }
        return out;
    }

    static PrivateKey privateKey(String pem, Path from) throws GeneralSecurityException {
        Matcher m = PEM.matcher(pem);
        while (m.find()) {
            byte[] der = decode(m.group(2));
            switch (m.group(1)) {
                case "PRIVATE KEY":
                    return pkcs8(der);
                case "RSA PRIVATE KEY":
                    return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(pkcs8OfRsa(der)));
                case "ENCRYPTED PRIVATE KEY":
                    throw new GeneralSecurityException("the private key in " + from + " is encrypted; give it unencrypted (readable by Ferry only)");
                default:
                    // certificates and other blocks around the key
            }
        }
        throw new GeneralSecurityException("no PEM private key (PRIVATE KEY or RSA PRIVATE KEY) in " + from);
    }

    private static PrivateKey pkcs8(byte[] der) throws GeneralSecurityException {
        for (String algorithm : new String[] {"RSA", "EC", "Ed25519"}) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
            } catch (InvalidKeySpecException e) {
                // another algorithm's key
            }
        }
        throw new InvalidKeySpecException("a PKCS#8 key of neither RSA, EC nor Ed25519");
    }

    /** PKCS#8 PrivateKeyInfo { version 0, rsaEncryption, OCTET STRING pkcs1 }. */
    static byte[] pkcs8OfRsa(byte[] pkcs1) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes(new byte[] {0x02, 0x01, 0x00});
        body.writeBytes(RSA_ALGORITHM);
        body.write(0x04);
        body.writeBytes(derLength(pkcs1.length));
        body.writeBytes(pkcs1);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0x30);
        out.writeBytes(derLength(body.size()));
        out.writeBytes(body.toByteArray());
        return out.toByteArray();
    }

    private static byte[] derLength(int n) {
        if (n < 0x80) {
            return new byte[] {(byte) n};
        }
        int bytes = n < 0x100 ? 1 : n < 0x10000 ? 2 : n < 0x1000000 ? 3 : 4;
        byte[] out = new byte[bytes + 1];
        out[0] = (byte) (0x80 | bytes);
        for (int i = 0; i < bytes; i++) {
            out[bytes - i] = (byte) (n >>> (8 * i));
        }
        return out;
    }

    private static byte[] decode(String base64) {
        return Base64.getMimeDecoder().decode(base64.replaceAll("\\s", ""));
    }

    private static X509ExtendedTrustManager defaultTrust(KeyStore store) throws GeneralSecurityException {
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(store);
        for (TrustManager tm : tmf.getTrustManagers()) {
            if (tm instanceof X509ExtendedTrustManager x) {
                return x;
            }
        }
        throw new GeneralSecurityException("no X.509 trust manager");
    }

    /**
     * A server is trusted when the configured CAs or the JDK's vouch for it; either checks the host name. Ferry never
     * accepts TLS connections through the mover, so client checks are refused.
     */
    private static final class EitherTrust extends X509ExtendedTrustManager {
        private final X509ExtendedTrustManager jdk;
        private final X509ExtendedTrustManager grid;

        EitherTrust(X509ExtendedTrustManager jdk, X509ExtendedTrustManager grid) {
            this.jdk = jdk;
            this.grid = grid;
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
            try {
                grid.checkServerTrusted(chain, authType, socket);
            } catch (CertificateException e) {
                try {
                    jdk.checkServerTrusted(chain, authType, socket);
                } catch (CertificateException alsoNot) {
                    throw e;  // the configured CAs' reason is the one an operator can act on
                }
            }
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
            try {
                grid.checkServerTrusted(chain, authType, engine);
            } catch (CertificateException e) {
                jdk.checkServerTrusted(chain, authType, engine);
            }
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            try {
                grid.checkServerTrusted(chain, authType);
            } catch (CertificateException e) {
                jdk.checkServerTrusted(chain, authType);
            }
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
            throw new CertificateException("the mover accepts no TLS clients");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
            throw new CertificateException("the mover accepts no TLS clients");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            throw new CertificateException("the mover accepts no TLS clients");
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return Stream.concat(Stream.of(grid.getAcceptedIssuers()), Stream.of(jdk.getAcceptedIssuers())).toArray(X509Certificate[]::new);
        }
    }
}
