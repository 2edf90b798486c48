package io.ferry.dev.testca;

import eu.emi.security.authn.x509.proxy.ProxyCertificate;
import eu.emi.security.authn.x509.proxy.ProxyCertificateOptions;
import eu.emi.security.authn.x509.proxy.ProxyGenerator;
import eu.emi.security.authn.x509.proxy.ProxyRequestOptions;
import eu.emi.security.authn.x509.proxy.ProxyType;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x509.AttributeCertificate;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A certificate chain (leaf first) and the leaf's private key: a user or host certificate, or a proxy.
 */
public record GridCredential(X509Certificate[] chain, PrivateKey key) {

    public X509Certificate certificate() {
        return chain[0];
    }

    /**
     * A proxy of this credential valid from {@code notBefore} to {@code notAfter}, of the given type (RFC 3820 or
     * the legacy Globus form), carrying the given VOMS attribute certificates (none for a plain proxy).
     */
    public GridCredential proxy(ProxyType type, Instant notBefore, Instant notAfter, List<AttributeCertificate> acs) {
        ProxyCertificateOptions options = new ProxyCertificateOptions(chain);
        options.setType(type);
        options.setKeyLength(2048);
        options.setValidityBounds(Date.from(notBefore), Date.from(notAfter));
        try {
            if (!acs.isEmpty()) {
                options.setAttributeCertificates(acs.toArray(AttributeCertificate[]::new));
            }
            ProxyCertificate proxy = ProxyGenerator.generate(options, key);
            return new GridCredential(proxy.getCertificateChain(), proxy.getPrivateKey());
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot make a proxy", e);
        }
    }

    /**
     * A TLS client that presents this credential (SunX509 presents it even when expired: refusing is the server's
     * job) and trusts {@code anchors}.
     */
    public SSLContext clientTls(X509Certificate... anchors) throws GeneralSecurityException, IOException {
        KeyStore keys = KeyStore.getInstance("PKCS12");
        keys.load(null, null);
        keys.setKeyEntry("credential", key, new char[0], chain);
        KeyManagerFactory kmf = KeyManagerFactory.getInstance("SunX509");
        kmf.init(keys, new char[0]);
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        for (int i = 0; i < anchors.length; i++) {
            trust.setCertificateEntry("anchor-" + i, anchors[i]);
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
        return tls;
    }

    /**
     * What a delegating client does with a server's certificate request ({@code csrPem}): signs an RFC 3820 proxy
     * for the request's key with this credential, valid from {@code notBefore} to {@code notAfter}; answers the
     * PEM the client puts back: the new proxy, then this credential's chain.
     */
    public String signRequest(String csrPem, Instant notBefore, Instant notAfter) {
        try (Reader r = new StringReader(csrPem); PEMParser pem = new PEMParser(r)) {
            Object csr = pem.readObject();
            if (!(csr instanceof PKCS10CertificationRequest request)) {
                throw new IllegalArgumentException("not a PEM certificate request");
            }
            ProxyRequestOptions options = new ProxyRequestOptions(chain, request);
            options.setType(ProxyType.RFC3820);
            options.setValidityBounds(Date.from(notBefore), Date.from(notAfter));
            StringBuilder out = new StringBuilder();
            for (X509Certificate c : ProxyGenerator.generate(options, key)) {
                out.append(pem(c));
            }
            return out.toString();
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot sign the certificate request", e);
        }
    }

    /**
     * Writes the proxy file layout that {@code voms-proxy-init} writes and curl's {@code --cert} and the FTS3
     * client read: the leaf certificate, its key, then the rest of the chain; readable by the owner only.
     */
    public Path writeProxy(Path file) throws IOException {
        StringBuilder pem = new StringBuilder(pem(chain[0])).append(pem(key));
        for (int i = 1; i < chain.length; i++) {
            pem.append(pem(chain[i]));
        }
        return writeOwnerOnly(file, pem.toString());
    }

    /** Writes {@code usercert.pem} / {@code userkey.pem} style files: the chain, and the key (owner only). */
    public void writeCertificateAndKey(Path certificateFile, Path keyFile) throws IOException {
        StringBuilder pem = new StringBuilder();
        for (X509Certificate c : chain) {
            pem.append(pem(c));
        }
        Files.createDirectories(certificateFile.toAbsolutePath().getParent());
        Files.writeString(certificateFile, pem);
        writeOwnerOnly(keyFile, pem(key));
    }

    /**
     * A credential from PEM files: every certificate of {@code certificateFile} (leaf first) and the first private
     * key of {@code keyFile}. One proxy file can be both, as {@code voms-proxy-init} writes it.
     */
    public static GridCredential load(Path certificateFile, Path keyFile) throws IOException {
        List<X509Certificate> chain = new ArrayList<>();
        PrivateKey privateKey = null;
        try {
            JcaX509CertificateConverter certificates = new JcaX509CertificateConverter();
            for (Object o : pemObjects(certificateFile)) {
                if (o instanceof X509CertificateHolder holder) {
                    chain.add(certificates.getCertificate(holder));
                }
            }
            JcaPEMKeyConverter keys = new JcaPEMKeyConverter();
            for (Object o : pemObjects(keyFile)) {
                if (o instanceof PEMKeyPair pair) {
                    privateKey = keys.getKeyPair(pair).getPrivate();
                } else if (o instanceof PrivateKeyInfo info) {
                    privateKey = keys.getPrivateKey(info);
                }
                if (privateKey != null) {
                    break;
                }
            }
        } catch (GeneralSecurityException e) {
            throw new IOException("unreadable certificate or key in " + certificateFile + ", " + keyFile, e);
        }
        if (chain.isEmpty() || privateKey == null) {
            throw new IOException("no certificate in " + certificateFile + " or no private key in " + keyFile);
        }
        return new GridCredential(chain.toArray(X509Certificate[]::new), privateKey);
    }

    private static List<Object> pemObjects(Path file) throws IOException {
        List<Object> objects = new ArrayList<>();
        try (Reader r = Files.newBufferedReader(file); PEMParser pem = new PEMParser(r)) {
            for (Object o = pem.readObject(); o != null; o = pem.readObject()) {
                objects.add(o);
            }
        }
        return objects;
    }

    static Path writeOwnerOnly(Path file, String text) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.deleteIfExists(file);
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        return Files.writeString(file, text);
    }

    /** One object (certificate, CRL, key) in PEM; private keys in the traditional PKCS#1 form grid tools expect. */
    public static String pem(Object object) {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
            writer.writeObject(object);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write PEM", e);
        }
        return out.toString();
    }
}
