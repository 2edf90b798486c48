package io.ferry.scheduler.credentials.delegation;

import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.bouncycastle.pkcs.jcajce.JcaPKCS10CertificationRequestBuilder;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPublicKey;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The X.509 side of FTS3's delegation, as fts-rest does it: Ferry makes a key pair and a certificate request, the
 * owner signs a proxy for that key with its own proxy and sends it back with its chain; the proxy must be for the
 * pending key, signed by the next certificate of its chain, and named as that certificate plus one CN. Whether the
 * chain is trusted and whose it is, the caller's certificate verifier decides.
 */
public final class ProxyDelegation {

    private static final int KEY_BITS = 2048;

    private ProxyDelegation() {
    }

    /** A pending request: the CSR the owner signs and the private key Ferry keeps for it (both PEM). */
    public record Request(String csrPem, String keyPem) {
        @Override
        public String toString() {
            return "Request[key redacted]";
        }
    }

    /** A new RSA key pair and its certificate request (subject {@code O=Dummy}, as fts-rest: the owner names the proxy). */
    public static Request newRequest() {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
            g.initialize(KEY_BITS);
            KeyPair pair = g.generateKeyPair();
            PKCS10CertificationRequest csr = new JcaPKCS10CertificationRequestBuilder(new X500Name("O=Dummy"), pair.getPublic())
                    .build(new JcaContentSignerBuilder("SHA256withRSA").build(pair.getPrivate()));
            return new Request(pem(csr), pem(pair.getPrivate()));
        } catch (GeneralSecurityException | OperatorCreationException e) {
            throw new IllegalStateException("cannot make an RSA certificate request", e);
        }
    }

    /** The certificates of a PEM text, in order (other blocks are skipped). */
    public static List<X509Certificate> certificates(String pem) {
        List<X509Certificate> out = new ArrayList<>();
        JcaX509CertificateConverter converter = new JcaX509CertificateConverter();
        try (PEMParser parser = new PEMParser(new StringReader(pem))) {
            for (Object o = parser.readObject(); o != null; o = parser.readObject()) {
                if (o instanceof X509CertificateHolder h) {
                    out.add(converter.getCertificate(h));
                }
            }
        } catch (IOException | CertificateException e) {
            throw new IllegalArgumentException("the PEM text does not parse: " + e.getMessage());
        }
        return out;
    }

    /** The private key of a PEM text (PKCS#8 or PKCS#1), or an exception when it holds none. */
    public static PrivateKey privateKey(String pem) {
        JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
        try (PEMParser parser = new PEMParser(new StringReader(pem))) {
            for (Object o = parser.readObject(); o != null; o = parser.readObject()) {
                if (o instanceof PEMKeyPair pair) {
                    return converter.getPrivateKey(pair.getPrivateKeyInfo());
                }
                if (o instanceof PrivateKeyInfo info) {
                    return converter.getPrivateKey(info);
                }
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("the PEM text does not parse");
        }
        throw new IllegalArgumentException("no private key in the PEM text");
    }

    /**
     * Checks a signed proxy and its chain (proxy first) against the pending request's key; answers why not, or null.
     */
    public static String refusal(List<X509Certificate> chain, PrivateKey pendingKey, Instant now) {
        if (chain.size() < 2) {
            return "expected the signed proxy followed by the certificates that issued it, got " + chain.size() + " certificate(s)";
        }
        X509Certificate proxy = chain.get(0);
        X509Certificate issuer = chain.get(1);
        if (!(proxy.getPublicKey() instanceof RSAPublicKey pub) || !(pendingKey instanceof RSAPrivateCrtKey pending)
                || !pub.getModulus().equals(pending.getModulus()) || !pub.getPublicExponent().equals(pending.getPublicExponent())) {
            return "the proxy is not for the key of the pending request (GET /delegation/{id}/request again and sign that one)";
        }
        try {
            proxy.verify(issuer.getPublicKey());
        } catch (GeneralSecurityException e) {
            return "the proxy is not signed by the certificate that follows it in the chain";
        }
        X500Name subject = X500Name.getInstance(proxy.getSubjectX500Principal().getEncoded());
        X500Name issuerName = X500Name.getInstance(issuer.getSubjectX500Principal().getEncoded());
        var rdns = subject.getRDNs();
        var issuerRdns = issuerName.getRDNs();
        boolean extendsIssuer = rdns.length == issuerRdns.length + 1
                && rdns[rdns.length - 1].getFirst().getType().equals(BCStyle.CN)
                && Arrays.equals(Arrays.copyOf(rdns, issuerRdns.length), issuerRdns);
        if (!extendsIssuer || !proxy.getIssuerX500Principal().equals(issuer.getSubjectX500Principal())) {
            return "the proxy's subject must be its issuer's plus one CN";
        }
        Instant expiry = expiry(chain);
        if (!expiry.isAfter(now)) {
            return "the proxy chain expired at " + expiry;
        }
        return null;
    }

    /** When the first certificate of the chain expires: the delegation's termination time. */
    public static Instant expiry(List<X509Certificate> chain) {
        return chain.stream().map(c -> c.getNotAfter().toInstant()).min(Instant::compareTo).orElseThrow();
    }

    /** FTS3's full proxy: the proxy, its key, then the rest of its chain. */
    public static String fullProxy(List<X509Certificate> chain, String keyPem) {
        StringBuilder b = new StringBuilder(pem(chain.get(0))).append(keyPem);
        for (X509Certificate c : chain.subList(1, chain.size())) {
            b.append(pem(c));
        }
        return b.toString();
    }

    private static String pem(Object o) {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter w = new JcaPEMWriter(out)) {
            w.writeObject(o);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return out.toString();
    }
}
