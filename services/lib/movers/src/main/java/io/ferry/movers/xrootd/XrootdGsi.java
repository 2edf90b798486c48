package io.ferry.movers.xrootd;

import io.ferry.movers.ClientCertificate;
import org.bouncycastle.asn1.ASN1Integer;
import org.bouncycastle.asn1.ASN1Sequence;
import org.bouncycastle.asn1.DERSequence;

import javax.crypto.Cipher;
import javax.crypto.KeyAgreement;
import javax.crypto.interfaces.DHPublicKey;
import javax.crypto.spec.DHParameterSpec;
import javax.crypto.spec.DHPublicKeySpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import javax.net.ssl.X509TrustManager;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * XRootD's {@code gsi} authentication (XrdSecProtocolgsi, version 10600) with a {@link ClientCertificate}: the
 * client names its CA by hash and sends a random tag (kXGC_certreq); the server answers with its certificate, the tag
 * signed, its Diffie-Hellman parameters signed and its own tag (kXGS_cert); the client checks the server's
 * certificate against the mover's trust and the host name, agrees on an AES-CBC session key by DH, and sends, its
 * DH value signed with the certificate's key, a main buffer encrypted with the session key that holds the server's
 * tag signed and the certificate chain (kXGC_cert). Proxy delegation (a server asking to sign a proxy request,
 * kXGS_pxyreq) is not offered; the server's host name is checked against its certificate's subject alternative names.
 */
final class XrootdGsi {

    static final int VERSION = 10600;
    private static final int CERT_REQUEST = 1000;
    private static final int CERT = 1001;
    private static final int SERVER_CERT = 2001;
    /** Per session, not static: a native image would otherwise carry one seeded while it was built. */
    private final SecureRandom random = new SecureRandom();

    private final ClientCertificate certificate;
    private final X509TrustManager trust;
    private final String host;
    private byte[] sentTag;

    XrootdGsi(ClientCertificate certificate, X509TrustManager trust, String host) {
        this.certificate = certificate;
        this.trust = trust;
        this.host = host;
    }

    /** kXGC_certreq: our CA's hash and a random tag for the server to sign. */
    byte[] certificateRequest() throws IOException {
        X509Certificate first = certificate.chain().get(0);
        GsiBuffer global = new GsiBuffer("gsi", CERT_REQUEST);
        global.add(GsiBuffer.CRYPTO_MODULE, "ssl".getBytes(StandardCharsets.US_ASCII));
        global.add(GsiBuffer.VERSION, VERSION);
        global.add(GsiBuffer.ISSUER_HASH, OpensslNameHash.of(caOf(certificate.chain())).getBytes(StandardCharsets.US_ASCII));
        global.add(GsiBuffer.CLIENT_OPTIONS, 0);
        GsiBuffer main = new GsiBuffer("gsi", CERT_REQUEST);
        sentTag = randomTag();
        main.add(GsiBuffer.RANDOM_TAG, sentTag);
        global.add(GsiBuffer.MAIN, main.serialize());
        return global.serialize();
    }

    /** The issuer of the chain's last non-CA certificate: the CA that vouches for the user. */
    private static javax.security.auth.x500.X500Principal caOf(List<X509Certificate> chain) {
        X509Certificate last = chain.get(0);
        for (X509Certificate c : chain) {
            if (c.getBasicConstraints() >= 0) {
                return c.getSubjectX500Principal();
            }
            last = c;
        }
        return last.getIssuerX500Principal();
    }

    /** kXGC_cert, the answer to the server's kXGS_cert. */
    byte[] certificate(byte[] answer) throws IOException, GeneralSecurityException {
        GsiBuffer global = GsiBuffer.parse(answer);
        if (global.step != SERVER_CERT) {
            throw new GeneralSecurityException("gsi: the server answered step " + global.step + (global.text(GsiBuffer.MESSAGE) == null ? "" : ": " + global.text(GsiBuffer.MESSAGE)));
        }
        String cipherName = aesCipher(global.text(GsiBuffer.CIPHER_ALGORITHMS));
        String digest = choose(global.text(GsiBuffer.DIGEST_ALGORITHMS), "sha256");
        X509Certificate server = serverCertificate(global.get(GsiBuffer.X509));
        PublicKey serverKey = server.getPublicKey();

        GsiBuffer main = GsiBuffer.parse(require(global.get(GsiBuffer.MAIN), "main buffer"));
        byte[] signedTag = require(main.get(GsiBuffer.SIGNED_RANDOM_TAG), "our random tag signed");
        if (!Arrays.equals(rsa(Cipher.DECRYPT_MODE, serverKey, signedTag), sentTag)) {
            throw new GeneralSecurityException("gsi: the server signed another random tag than ours");
        }
        main.deactivate(GsiBuffer.SIGNED_RANDOM_TAG);

        byte[] serverDh = rsa(Cipher.DECRYPT_MODE, serverKey, require(global.get(GsiBuffer.CIPHER), "DH parameters"));
        KeyPair ours;
        byte[] secret;
        DHParameterSpec params;
        {
            String text = new String(serverDh, StandardCharsets.US_ASCII);
            int b = text.indexOf("---BPUB---");
            int e = text.indexOf("---EPUB--");
            if (b < 0 || e < b) {
                throw new GeneralSecurityException("gsi: no DH public value from the server");
            }
            params = dhParameters(text.substring(0, b));
            BigInteger y = new BigInteger(text.substring(b + 10, e), 16);
            KeyPairGenerator g = KeyPairGenerator.getInstance("DH");
            g.initialize(params, random);
            ours = g.generateKeyPair();
            KeyAgreement agreement = KeyAgreement.getInstance("DH");
            agreement.init(ours.getPrivate());
            agreement.doPhase(KeyFactory.getInstance("DH").generatePublic(new DHPublicKeySpec(y, params.getP(), params.getG())), true);
            secret = agreement.generateSecret();  // left-padded to the prime's length, as gsi's "padded" DH
        }
        int keyLength = cipherName.startsWith("aes-128") ? 16 : cipherName.startsWith("aes-192") ? 24 : 32;
        SecretKeySpec sessionKey = new SecretKeySpec(Arrays.copyOf(secret, keyLength), "AES");

        global.update(GsiBuffer.CIPHER_ALGORITHMS, (cipherName + "#16").getBytes(StandardCharsets.US_ASCII));
        global.deactivate(GsiBuffer.CIPHER);
        global.deactivate(GsiBuffer.X509);
        global.update(GsiBuffer.DIGEST_ALGORITHMS, digest.getBytes(StandardCharsets.US_ASCII));
        global.add(GsiBuffer.CIPHER, rsa(Cipher.ENCRYPT_MODE, certificate.key(), dhPublic(params, ((DHPublicKey) ours.getPublic()).getY())));
        global.update(GsiBuffer.PUBLIC_KEY, pem("PUBLIC KEY", certificate.chain().get(0).getPublicKey().getEncoded()));

        byte[] serverTag = require(main.get(GsiBuffer.RANDOM_TAG), "the server's random tag");
        main.retype(GsiBuffer.RANDOM_TAG, GsiBuffer.SIGNED_RANDOM_TAG, rsa(Cipher.ENCRYPT_MODE, certificate.key(), serverTag));
        sentTag = randomTag();
        main.add(GsiBuffer.RANDOM_TAG, sentTag);
        main.add(GsiBuffer.X509, chainPem());
        main.step = CERT;
        global.step = CERT;

        byte[] iv = new byte[16];
        random.nextBytes(iv);
        Cipher aes = Cipher.getInstance("AES/CBC/PKCS5Padding");
        aes.init(Cipher.ENCRYPT_MODE, sessionKey, new IvParameterSpec(iv));
        byte[] sealed = aes.doFinal(main.serialize());
        byte[] withIv = Arrays.copyOf(iv, iv.length + sealed.length);
        System.arraycopy(sealed, 0, withIv, iv.length, sealed.length);
        global.update(GsiBuffer.MAIN, withIv);
        return global.serialize();
    }

    private X509Certificate serverCertificate(byte[] pem) throws GeneralSecurityException {
        Collection<? extends java.security.cert.Certificate> certs = CertificateFactory.getInstance("X.509")
                .generateCertificates(new ByteArrayInputStream(require(pem, "server certificate")));
        List<X509Certificate> chain = new ArrayList<>();
        for (java.security.cert.Certificate c : certs) {
            chain.add((X509Certificate) c);
        }
        if (chain.isEmpty()) {
            throw new GeneralSecurityException("gsi: no server certificate");
        }
        X509Certificate[] array = chain.toArray(X509Certificate[]::new);
        trust.checkServerTrusted(array, "RSA");
        if (!namesHost(array[0])) {
            throw new GeneralSecurityException("gsi: the server's certificate is not for " + host);
        }
        return array[0];
    }

    /** RFC 2818: a DNS or IP subject alternative name equal to the host (a leading "*." matches one label). */
    private boolean namesHost(X509Certificate c) throws GeneralSecurityException {
        Collection<List<?>> names = c.getSubjectAlternativeNames();
        if (names == null) {
            return false;
        }
        String h = host.toLowerCase(Locale.ROOT);
        for (List<?> n : names) {
            String v = String.valueOf(n.get(1)).toLowerCase(Locale.ROOT);
            if (v.equals(h) || v.startsWith("*.") && h.indexOf('.') > 0 && h.substring(h.indexOf('.')).equals(v.substring(1))) {
                return true;
            }
        }
        return false;
    }

    private static DHParameterSpec dhParameters(String pem) throws GeneralSecurityException {
        int b = pem.indexOf("-----BEGIN");
        int bodyStart = pem.indexOf('\n', b) + 1;
        int e = pem.indexOf("-----END");
        if (b < 0 || bodyStart <= 0 || e < bodyStart) {
            throw new GeneralSecurityException("gsi: no DH parameters from the server");
        }
        byte[] der = Base64.getMimeDecoder().decode(pem.substring(bodyStart, e));
        ASN1Sequence seq = ASN1Sequence.getInstance(der);
        if (pem.startsWith("-----BEGIN X9.42 DH PARAMETERS-----", b)) {
            // X9.42: p, g, q, ...
            return new DHParameterSpec(ASN1Integer.getInstance(seq.getObjectAt(0)).getValue(), ASN1Integer.getInstance(seq.getObjectAt(1)).getValue());
        }
        return new DHParameterSpec(ASN1Integer.getInstance(seq.getObjectAt(0)).getValue(), ASN1Integer.getInstance(seq.getObjectAt(1)).getValue());
    }

    /** Our DH value as XrdCryptosslCipher::Public writes it: the parameters in PEM, then ---BPUB---hex---EPUB---. */
    private static byte[] dhPublic(DHParameterSpec params, BigInteger y) throws IOException {
        byte[] der = new DERSequence(new org.bouncycastle.asn1.ASN1Encodable[] {new ASN1Integer(params.getP()), new ASN1Integer(params.getG())}).getEncoded();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(pem("DH PARAMETERS", der));
        out.writeBytes(("---BPUB---" + y.toString(16).toUpperCase(Locale.ROOT) + "---EPUB---").getBytes(StandardCharsets.US_ASCII));
        return out.toByteArray();
    }

    private byte[] chainPem() throws GeneralSecurityException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (X509Certificate c : certificate.chain()) {
            if (c.getBasicConstraints() >= 0) {
                break;  // CAs are the server's to know
            }
            out.writeBytes(pem("CERTIFICATE", c.getEncoded()));
        }
        return out.toByteArray();
    }

    private static byte[] pem(String type, byte[] der) {
        String body = Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der);
        return ("-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n").getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * RSA with PKCS#1 v1.5 padding in blocks, as XrdCryptosslRSA: encrypting with a private key signs (blocks of the
     * modulus length less 11), decrypting with a public key checks.
     */
    private static byte[] rsa(int mode, Key key, byte[] in) throws GeneralSecurityException {
        int modulus = ((java.security.interfaces.RSAKey) key).getModulus().bitLength() / 8;
        int block = mode == Cipher.ENCRYPT_MODE ? modulus - 11 : modulus;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Cipher c = Cipher.getInstance("RSA/ECB/PKCS1Padding");
        c.init(mode, key);
        for (int off = 0; off < in.length; off += block) {
            out.writeBytes(c.doFinal(in, off, Math.min(block, in.length - off)));
        }
        return out.toByteArray();
    }

    /** The strongest AES-CBC the server offers (5.5.3 offers aes-128-cbc, bf-cbc, des-ede3-cbc); only AES is spoken. */
    private static String aesCipher(String offered) throws GeneralSecurityException {
        List<String> list = Arrays.asList((offered == null ? "aes-128-cbc" : offered).split(":"));
        for (String name : new String[] {"aes-256-cbc", "aes-192-cbc", "aes-128-cbc"}) {
            if (list.contains(name)) {
                return name;
            }
        }
        throw new GeneralSecurityException("gsi: the server offers no AES cipher (" + offered + ")");
    }

    private static String choose(String offered, String preferred) {
        if (offered == null) {
            return preferred;
        }
        List<String> list = Arrays.asList(offered.split(":"));
        return list.contains(preferred) ? preferred : list.get(0);
    }

    private static byte[] require(byte[] b, String what) throws GeneralSecurityException {
        if (b == null) {
            throw new GeneralSecurityException("gsi: the server sent no " + what);
        }
        return b;
    }

    private byte[] randomTag() {
        byte[] raw = new byte[8];
        random.nextBytes(raw);
        return HexFormat.of().formatHex(raw).getBytes(StandardCharsets.US_ASCII);
    }
}
