package io.ferry.cli.auth;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * An X.509 proxy as {@code voms-proxy-init} writes it ({@code $X509_USER_PROXY}, else {@code /tmp/x509up_u$UID}):
 * the proxy certificate, its unencrypted key (PKCS#1 or PKCS#8), then the rest of the chain. It becomes the TLS
 * client certificate; the servers are trusted by the CA directory ({@code --capath}, {@code $X509_CERT_DIR}, else
 * {@code /etc/grid-security/certificates}).
 */
public final class ProxyCredentials {

    private static final Pattern PEM = Pattern.compile("-----BEGIN ([A-Z ]+)-----([A-Za-z0-9+/=\\s]+)-----END \\1-----");

    private ProxyCredentials() {
    }

    /** Where the proxy is: {@code --proxy}, {@code $X509_USER_PROXY}, {@code /tmp/x509up_u$UID}, if the file exists. */
    public static Optional<Path> find(String flag, Environment env, Path tmp) {
        if (flag != null && !flag.isBlank()) {
            return Optional.of(Path.of(flag));
        }
        Optional<String> named = env.get("X509_USER_PROXY");
        if (named.isPresent()) {
            return Optional.of(Path.of(named.get()));
        }
        Path p = tmp.resolve("x509up_u" + env.uid());
        return Files.isRegularFile(p) ? Optional.of(p) : Optional.empty();
    }

    /** The CA directory: {@code --capath}, {@code $X509_CERT_DIR}, else {@code /etc/grid-security/certificates}. */
    public static Path caDirectory(String flag, Environment env) {
        return Path.of(flag != null && !flag.isBlank() ? flag : env.get("X509_CERT_DIR").orElse("/etc/grid-security/certificates"));
    }

    public static Credential load(Path proxy, Path caDirectory) {
        try {
            String pem = Files.readString(proxy);
            List<X509Certificate> chain = new ArrayList<>();
            PrivateKey key = null;
            CertificateFactory x509 = CertificateFactory.getInstance("X.509");
            Matcher m = PEM.matcher(pem);
            while (m.find()) {
                byte[] der = Base64.getMimeDecoder().decode(m.group(2));
                switch (m.group(1)) {
                    case "CERTIFICATE" -> chain.add((X509Certificate) x509.generateCertificate(new ByteArrayInputStream(der)));
                    case "PRIVATE KEY" -> key = KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(der));
                    case "RSA PRIVATE KEY" -> key = KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(Pkcs1.toPkcs8(der)));
                    default -> throw new IllegalArgumentException(proxy + " holds a " + m.group(1) + ", which a proxy file does not (an encrypted key?)");
                }
            }
            if (chain.isEmpty() || key == null) {
                throw new IllegalArgumentException(proxy + " is not a proxy file: it needs a certificate and its unencrypted key");
            }
            KeyStore keys = KeyStore.getInstance("PKCS12");
            keys.load(null, null);
            keys.setKeyEntry("proxy", key, new char[0], chain.toArray(Certificate[]::new));
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(keys, new char[0]);
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trustAnchors(caDirectory, x509));
            SSLContext tls = SSLContext.getInstance("TLS");
            tls.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
            Instant expires = chain.stream().map(c -> c.getNotAfter().toInstant()).min(Instant::compareTo).orElseThrow();
            return Credential.proxy(tls, "X.509 proxy " + proxy, expires);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the proxy " + proxy + ": " + e.getMessage());
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot use the proxy " + proxy + ": " + e.getMessage());
        }
    }

    /** Every certificate of the CA directory ({@code <hash>.0} files and {@code *.pem}). */
    private static KeyStore trustAnchors(Path dir, CertificateFactory x509) throws IOException, GeneralSecurityException {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("no CA directory " + dir + " (set X509_CERT_DIR or --capath)");
        }
        int n = 0;
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(f -> f.getFileName().toString().matches("[0-9a-f]{8}\\.\\d+|.*\\.pem")).sorted().toList()) {
                Matcher m = PEM.matcher(Files.readString(f));
                while (m.find()) {
                    if (m.group(1).equals("CERTIFICATE")) {
                        trust.setCertificateEntry("ca" + n++, x509.generateCertificate(new ByteArrayInputStream(Base64.getMimeDecoder().decode(m.group(2)))));
                    }
                }
            }
        }
        if (n == 0) {
            throw new IllegalArgumentException("the CA directory " + dir + " holds no certificates");
        }
        return trust;
    }
}
