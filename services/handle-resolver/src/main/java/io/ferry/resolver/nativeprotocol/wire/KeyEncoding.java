package io.ferry.resolver.nativeprotocol.wire;

import javax.crypto.interfaces.DHPublicKey;
import javax.crypto.spec.DHPublicKeySpec;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.interfaces.DSAPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.DSAPublicKeySpec;
import java.security.spec.RSAPublicKeySpec;

/**
 * CNRI's encoding of public keys, as HS_PUBKEY values, HS_SITE server records and session key exchanges carry them:
 * the key type's name, 2 reserved flag bytes, then the key's numbers, each length-prefixed: {@code DSA_PUB_KEY}
 * (q, p, g, y), {@code RSA_PUB_KEY} (exponent, modulus), {@code DH_PUB_KEY} (y, p, g).
 */
public final class KeyEncoding {

    public static final String DSA = "DSA_PUB_KEY";
    public static final String RSA = "RSA_PUB_KEY";
    public static final String DH = "DH_PUB_KEY";

    private KeyEncoding() {
    }

    /** The key encoded at the start of {@code encoded}, or null for a kind this server does not read. */
    public static PublicKey publicKey(byte[] encoded) throws GeneralSecurityException {
        WireReader in = new WireReader(encoded, 0, encoded.length);
        String type = new String(in.bytes(), StandardCharsets.US_ASCII);
        in.int2();
        return switch (type) {
            case DSA -> {
                BigInteger q = number(in);
                BigInteger p = number(in);
                BigInteger g = number(in);
                BigInteger y = number(in);
                yield KeyFactory.getInstance("DSA").generatePublic(new DSAPublicKeySpec(y, p, q, g));
            }
            case RSA -> {
                BigInteger exponent = number(in);
                BigInteger modulus = number(in);
                yield KeyFactory.getInstance("RSA").generatePublic(new RSAPublicKeySpec(modulus, exponent));
            }
            case DH -> {
                BigInteger y = number(in);
                BigInteger p = number(in);
                BigInteger g = number(in);
                yield KeyFactory.getInstance("DH").generatePublic(new DHPublicKeySpec(y, p, g));
            }
            default -> null;
        };
    }

    public static byte[] encode(PublicKey key) {
        WireWriter out = new WireWriter(512);
        if (key instanceof RSAPublicKey rsa) {
            header(out, RSA).bytes(rsa.getPublicExponent().toByteArray()).bytes(rsa.getModulus().toByteArray());
        } else if (key instanceof DSAPublicKey dsa) {
            header(out, DSA).bytes(dsa.getParams().getQ().toByteArray()).bytes(dsa.getParams().getP().toByteArray())
                    .bytes(dsa.getParams().getG().toByteArray()).bytes(dsa.getY().toByteArray());
        } else if (key instanceof DHPublicKey dh) {
            header(out, DH).bytes(dh.getY().toByteArray()).bytes(dh.getParams().getP().toByteArray())
                    .bytes(dh.getParams().getG().toByteArray());
        } else {
            throw new IllegalArgumentException("no CNRI encoding for a " + key.getAlgorithm() + " key");
        }
        return out.toByteArray();
    }

    private static WireWriter header(WireWriter out, String type) {
        return out.bytes(type.getBytes(StandardCharsets.US_ASCII)).int2(0);
    }

    private static BigInteger number(WireReader in) {
        return new BigInteger(1, in.bytes());
    }
}
