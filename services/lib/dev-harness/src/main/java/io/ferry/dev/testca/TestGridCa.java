package io.ferry.dev.testca;

import eu.emi.security.authn.x509.helpers.trust.OpensslTruststoreHelper;
import eu.emi.security.authn.x509.impl.OpensslNameUtils;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.CRLNumber;
import org.bouncycastle.asn1.x509.CRLReason;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v2CRLBuilder;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CRLConverter;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import javax.security.auth.x500.X500Principal;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A certificate authority for the dev stack and tests: issues user and host certificates, revokes them, and
 * writes itself as a grid trust-anchor directory holds a CA ({@code <hash>.0}, {@code <hash>.signing_policy},
 * {@code <hash>.r0}). Never for production: its key sits in a plain file.
 */
public final class TestGridCa {

    private static final SecureRandom RANDOM = new SecureRandom();

    private final GridCredential credential;
    private final List<BigInteger> revoked = new ArrayList<>();
    private final AtomicLong crlNumber = new AtomicLong(1);

    private TestGridCa(GridCredential credential) {
        this.credential = credential;
    }

    /** A new self-signed CA named {@code dn} (OpenSSL form, {@code /DC=org/DC=ferry/CN=Ferry Test CA}). */
    public static TestGridCa create(String dn, Duration lifetime) {
        KeyPair keys = newKeyPair();
        Instant now = Instant.now();
        try {
            X500Name name = x500(dn);
            X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(name, serial(), Date.from(now.minusSeconds(300)),
                    Date.from(now.plus(lifetime)), name, keys.getPublic());
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
            b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
            b.addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(keys.getPublic()));
            X509Certificate cert = new JcaX509CertificateConverter().getCertificate(b.build(signer(keys.getPrivate())));
            return new TestGridCa(new GridCredential(new X509Certificate[] {cert}, keys.getPrivate()));
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot create a test CA", e);
        }
    }

    /** The CA of a credential made by {@link #create} before (its certificate and key, as {@link #credential()} gives them). */
    public static TestGridCa of(GridCredential credential) {
        return new TestGridCa(credential);
    }

    /** The CA's certificate and key, to keep between runs ({@link GridCredential#writeCertificateAndKey}). */
    public GridCredential credential() {
        return credential;
    }

    public X509Certificate certificate() {
        return credential.certificate();
    }

    /** The CA's DN in OpenSSL form. */
    public String dn() {
        return openssl(certificate().getSubjectX500Principal());
    }

    /** A user certificate (client authentication) for {@code dn}. */
    public GridCredential issueUser(String dn, Instant notBefore, Instant notAfter) {
        return issue(dn, notBefore, notAfter, KeyPurposeId.id_kp_clientAuth);
    }

    /**
     * A host or service certificate (server and client authentication), as a VOMS server or an HTTPS service has;
     * {@code names} become its subject alternative names (IP addresses as such, anything else as DNS names).
     */
    public GridCredential issueHost(String dn, Instant notBefore, Instant notAfter, String... names) {
        return issue(dn, notBefore, notAfter, List.of(names), KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth);
    }

    private GridCredential issue(String dn, Instant notBefore, Instant notAfter, KeyPurposeId... purposes) {
        return issue(dn, notBefore, notAfter, List.of(), purposes);
    }

    private GridCredential issue(String dn, Instant notBefore, Instant notAfter, List<String> names, KeyPurposeId... purposes) {
        KeyPair keys = newKeyPair();
        try {
            X509Certificate ca = certificate();
            X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(ca, serial(), Date.from(notBefore),
                    Date.from(notAfter), x500(dn), keys.getPublic());
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment
                    | KeyUsage.dataEncipherment));
            b.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(purposes));
            b.addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(keys.getPublic()));
            b.addExtension(Extension.authorityKeyIdentifier, false, ext.createAuthorityKeyIdentifier(ca));
            if (!names.isEmpty()) {
                GeneralName[] alt = names.stream().map(n -> new GeneralName(
                        n.matches("[0-9.]+|.*:.*") ? GeneralName.iPAddress : GeneralName.dNSName, n)).toArray(GeneralName[]::new);
                b.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(alt));
            }
            X509Certificate cert = new JcaX509CertificateConverter().getCertificate(b.build(signer(credential.key())));
            return new GridCredential(new X509Certificate[] {cert}, keys.getPrivate());
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot issue a certificate for " + dn, e);
        }
    }

    /** Puts {@code certificate} on the CA's revocation list (written by the next {@link #writeTrustAnchors}). */
    public synchronized void revoke(X509Certificate certificate) {
        revoked.add(certificate.getSerialNumber());
    }

    /** The current CRL, valid for a week. */
    public synchronized X509CRL crl() {
        Instant now = Instant.now();
        try {
            X509v2CRLBuilder b = new X509v2CRLBuilder(x500(dn()), Date.from(now.minusSeconds(60)));
            b.setNextUpdate(Date.from(now.plus(Duration.ofDays(7))));
            for (BigInteger serial : revoked) {
                b.addCRLEntry(serial, Date.from(now.minusSeconds(60)), CRLReason.keyCompromise);
            }
            b.addExtension(Extension.authorityKeyIdentifier, false,
                    new JcaX509ExtensionUtils().createAuthorityKeyIdentifier(certificate()));
            b.addExtension(Extension.cRLNumber, false, new CRLNumber(BigInteger.valueOf(crlNumber.getAndIncrement())));
            return new JcaX509CRLConverter().getCRL(b.build(signer(credential.key())));
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot sign a CRL", e);
        }
    }

    /** The Globus signing policy: this CA signs names below its own, less its last part. */
    public String signingPolicy() {
        String dn = dn();
        String namespace = dn.substring(0, dn.lastIndexOf('/'));
        return "access_id_CA      X509         '" + dn + "'\n"
                + "pos_rights        globus       CA:sign\n"
                + "cond_subjects     globus       '\"" + namespace + "/*\"'\n";
    }

    /**
     * Writes the CA into {@code dir} as IGTF distributions lay out {@code /etc/grid-security/certificates}:
     * {@code <hash>.0} (certificate), {@code <hash>.signing_policy} and {@code <hash>.r0} (CRL), under the
     * OpenSSL 1.x subject hash. Returns the hash.
     */
    public String writeTrustAnchors(Path dir) throws IOException {
        Files.createDirectories(dir);
        String hash = OpensslTruststoreHelper.getOpenSSLCAHash(certificate().getSubjectX500Principal(), true);
        Files.writeString(dir.resolve(hash + ".0"), GridCredential.pem(certificate()));
        Files.writeString(dir.resolve(hash + ".signing_policy"), signingPolicy());
        Files.writeString(dir.resolve(hash + ".r0"), GridCredential.pem(crl()));
        return hash;
    }

    static X500Name x500(String opensslDn) {
        return X500Name.getInstance(new X500Principal(OpensslNameUtils.opensslToRfc2253(opensslDn)).getEncoded());
    }

    static ContentSigner signer(PrivateKey key) {
        try {
            return new JcaContentSignerBuilder("SHA256withRSA").build(key);
        } catch (org.bouncycastle.operator.OperatorCreationException e) {
            throw new IllegalStateException("cannot sign with SHA256withRSA", e);
        }
    }

    static KeyPair newKeyPair() {
        try {
            KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
            rsa.initialize(2048, RANDOM);
            return rsa.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("RSA is part of every JDK", e);
        }
    }

    private static BigInteger serial() {
        return new BigInteger(63, RANDOM).add(BigInteger.ONE);
    }

    /** A DN in OpenSSL's one-line form ({@code /DC=org/DC=ferry/CN=alice}), as trust anchors and .lsc files write it. */
    private static String openssl(X500Principal name) {
        return OpensslNameUtils.convertFromRfc2253(name.getName(X500Principal.RFC2253), false);
    }
}
