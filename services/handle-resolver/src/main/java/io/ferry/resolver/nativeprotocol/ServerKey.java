package io.ferry.resolver.nativeprotocol;

import io.ferry.resolver.nativeprotocol.wire.WireReader;
import io.ferry.resolver.nativeprotocol.wire.KeyEncoding;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.interfaces.DSAPrivateKey;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.spec.DSAPrivateKeySpec;
import java.security.spec.DSAPublicKeySpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.RSAPrivateCrtKeySpec;
import java.security.spec.RSAPublicKeySpec;
import java.util.Base64;

/**
 * This server's key pair for the native protocol: the private key signs certified answers and session setups, the
 * public key goes into the HS_SITE record a client verifies them with. Read from
 * {@code ferry.resolver.native.server-key-file} (PKCS#8 PEM, or an unencrypted CNRI {@code privkey.bin}); a missing
 * file is generated there when {@code generate-server-key} is on; with no file configured the key lives in memory
 * only, and changes with every start.
 */
@ApplicationScoped
public class ServerKey {

    private static final Logger LOG = Logger.getLogger(ServerKey.class);

    /** PKCS#8's PEM label (RFC 7468); the armour lines are built from it, no key material lives in this source. */
    private static final String PKCS8_LABEL = "PRIVATE KEY";
    private static final String PEM_BEGIN = "-----BEGIN " + PKCS8_LABEL + "-----";
    private static final String PEM_END = "-----END " + PKCS8_LABEL + "-----";
    /** CNRI's privkey.bin starts with the encryption it was stored under; 1 is none. */
    private static final int CNRI_ENCRYPT_NONE = 1;
    private static final int RSA_BITS = 2048;

    final NativeProtocolConfig config;

    @Inject
    public ServerKey(NativeProtocolConfig config) {
        this.config = config;
    }

    private KeyPair pair;
    private byte[] encodedPublic;

    @PostConstruct
    void init() {
        pair = config.serverKeyFile().map(this::fromFile).orElseGet(() -> {
            LOG.warn("ferry.resolver.native.server-key-file is not set: the native protocol signs with a key generated for this run only");
            return generate();
        });
        encodedPublic = KeyEncoding.encode(pair.getPublic());
    }

    public PrivateKey privateKey() {
        return pair.getPrivate();
    }

    public PublicKey publicKey() {
        return pair.getPublic();
    }

    /** The public key in CNRI's encoding, as the HS_SITE server record carries it. */
    public byte[] encodedPublicKey() {
        return encodedPublic.clone();
    }

    private KeyPair fromFile(Path file) {
        try {
            if (!Files.exists(file)) {
                if (!config.generateServerKey()) {
                    throw new IllegalStateException("ferry.resolver.native.server-key-file " + file + " does not exist");
                }
                KeyPair generated = generate();
                write(file, generated.getPrivate());
                LOG.infof("native protocol: generated server key %s", file);
                return generated;
            }
            return read(Files.readAllBytes(file));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or write the server key " + file, e);
        } catch (GeneralSecurityException | RuntimeException e) {
            throw new IllegalStateException("ferry.resolver.native.server-key-file " + file + " holds no RSA or DSA private key", e);
        }
    }

    /** A key pair from a PKCS#8 PEM file or an unencrypted CNRI privkey.bin, the public half derived from the private. */
    static KeyPair read(byte[] file) throws GeneralSecurityException {
        String text = new String(file, StandardCharsets.US_ASCII);
        PrivateKey key;
        if (text.contains(PEM_BEGIN)) {
            String base64 = text.substring(text.indexOf(PEM_BEGIN) + PEM_BEGIN.length(), text.indexOf(PEM_END)).replaceAll("\\s", "");
            byte[] der = Base64.getDecoder().decode(base64);
            key = pkcs8(der);
        } else {
            key = cnriPrivateKey(file);
        }
        return new KeyPair(publicOf(key), key);
    }

    private static PrivateKey pkcs8(byte[] der) throws GeneralSecurityException {
        try {
            return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(der));
        } catch (GeneralSecurityException notRsa) {
            return KeyFactory.getInstance("DSA").generatePrivate(new PKCS8EncodedKeySpec(der));
        }
    }

    /** CNRI's unencrypted key file: 1, then {@code RSA_PRIVCRT_KEY} (n, e, d, p, q, dp, dq, coefficient) or {@code DSA_PRIV_KEY} (x, p, q, g). */
    private static PrivateKey cnriPrivateKey(byte[] file) throws GeneralSecurityException {
        WireReader in = new WireReader(file, 0, file.length);
        if (in.int4() != CNRI_ENCRYPT_NONE) {
            throw new GeneralSecurityException("an encrypted privkey.bin: store it unencrypted or as PKCS#8 PEM");
        }
        String type = new String(in.bytes(), StandardCharsets.US_ASCII);
        return switch (type) {
            case "RSA_PRIVCRT_KEY" -> KeyFactory.getInstance("RSA").generatePrivate(new RSAPrivateCrtKeySpec(number(in), number(in),
                    number(in), number(in), number(in), number(in), number(in), number(in)));
            case "DSA_PRIV_KEY" -> {
                BigInteger x = number(in);
                BigInteger p = number(in);
                BigInteger q = number(in);
                BigInteger g = number(in);
                yield KeyFactory.getInstance("DSA").generatePrivate(new DSAPrivateKeySpec(x, p, q, g));
            }
            default -> throw new GeneralSecurityException("unsupported CNRI key type " + type);
        };
    }

    private static BigInteger number(WireReader in) {
        return new BigInteger(1, in.bytes());
    }

    private static PublicKey publicOf(PrivateKey key) throws GeneralSecurityException {
        if (key instanceof RSAPrivateCrtKey rsa) {
            return KeyFactory.getInstance("RSA").generatePublic(new RSAPublicKeySpec(rsa.getModulus(), rsa.getPublicExponent()));
        }
        if (key instanceof DSAPrivateKey dsa) {
            var params = dsa.getParams();
            BigInteger y = params.getG().modPow(dsa.getX(), params.getP());
            return KeyFactory.getInstance("DSA").generatePublic(new DSAPublicKeySpec(y, params.getP(), params.getQ(), params.getG()));
        }
        throw new GeneralSecurityException("an RSA key without its CRT parameters or a " + key.getAlgorithm() + " key");
    }

    private static KeyPair generate() {
        try {
            KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
            rsa.initialize(RSA_BITS);
            return rsa.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Writes the key as PKCS#8 PEM, readable by its owner only. */
    static void write(Path file, PrivateKey key) throws IOException {
        if (file.getParent() != null) {
            Files.createDirectories(file.getParent());
        }
        String pem = PEM_BEGIN + "\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(key.getEncoded())
                + "\n" + PEM_END + "\n";
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(tmp, pem, StandardCharsets.US_ASCII, StandardOpenOption.TRUNCATE_EXISTING);
        Files.move(tmp, file);
    }
}
