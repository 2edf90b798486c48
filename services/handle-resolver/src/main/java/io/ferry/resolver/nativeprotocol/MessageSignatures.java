package io.ferry.resolver.nativeprotocol;

import io.ferry.resolver.nativeprotocol.wire.WireWriter;
import io.ferry.resolver.nativeprotocol.wire.WireReader;
import io.ferry.resolver.authentication.SecretKeyChallenge;
import io.ferry.resolver.nativeprotocol.wire.Envelope;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.Signature;
import java.util.Locale;

/**
 * The credential section after a message's body, as CNRI's {@code AbstractMessage.signMessage}/{@code verifyMessage}
 * write and read it: version, reserved byte, flags, an empty string, the session counter, the credential type
 * ({@code HS_MAC} under a session key, {@code HS_SIGNED} under the server's private key), then the hash algorithm's
 * name and the signature. What is signed, from protocol 2.6 (2.7 for MACs): the envelope's versions (and, from 2.8,
 * the suggested ones), session id, request id and counter, then the message's header and body.
 */
final class MessageSignatures {

    static final String HS_MAC = "HS_MAC";
    static final String HS_SIGNED = "HS_SIGNED";
    private static final String HMAC_SHA256 = "HMAC-SHA256";

    /** A request's credential, read. */
    record Credential(int counter, String type, String hashAlgorithm, byte[] signature) {

        /** The credential {@code raw} holds, or null when it holds none (an empty credential section). */
        static Credential read(byte[] raw) {
            if (raw == null || raw.length == 0) {
                return null;
            }
            WireReader in = new WireReader(raw, 0, raw.length);
            in.int1();
            in.int1();
            in.int2();
            in.bytes();
            int counter = in.int4();
            String type = new String(in.bytes(), StandardCharsets.UTF_8);
            in.int4();
            String hash = new String(in.bytes(), StandardCharsets.UTF_8);
            return new Credential(counter, type, hash, in.bytes());
        }
    }

    private MessageSignatures() {
    }

    /** The HS_MAC credential of an answer (header and body {@code message}) sent under {@code envelope} in {@code session}. */
    static byte[] mac(NativeSession session, Envelope envelope, int counter, byte[] message) throws GeneralSecurityException {
        byte[] mac = SecretKeyChallenge.mac(SecretKeyChallenge.HMAC_SHA256, session.key(), signedBytes(envelope, counter, message, true));
        return credential(counter, HS_MAC, HMAC_SHA256, mac);
    }

    /** The HS_SIGNED credential of an answer sent under {@code envelope}, signed by {@code key} as CNRI's client verifies it. */
    static byte[] sign(PrivateKey key, Envelope envelope, int counter, byte[] message) throws GeneralSecurityException {
        boolean sha256 = envelope.atLeast(2, 7) && !("DSA".equals(key.getAlgorithm()) && !envelope.atLeast(2, 11));
        Signature signer = Signature.getInstance((sha256 ? "SHA256with" : "SHA1with") + key.getAlgorithm());
        signer.initSign(key);
        signer.update(signedBytes(envelope, counter, message, false));
        return credential(counter, HS_SIGNED, sha256 ? "SHA-256" : "SHA1", signer.sign());
    }

    /** Whether {@code credential} is a MAC, under {@code session}'s key, of {@code request} as its envelope sent it. */
    static boolean verifyMac(NativeSession session, NativeRequest request, Credential credential) {
        if (credential == null || !HS_MAC.equals(credential.type()) || !request.envelope().atLeast(2, 7)) {
            return false;
        }
        byte alg = switch (credential.hashAlgorithm().toUpperCase(Locale.ROOT).replace("-", "")) {
            case "HMACSHA256" -> SecretKeyChallenge.HMAC_SHA256;
            case "HMACSHA1" -> SecretKeyChallenge.HMAC_SHA1;
            default -> 0;
        };
        try {
            byte[] expected = alg == 0 ? null
                    : SecretKeyChallenge.mac(alg, session.key(), signedBytes(request.envelope(), credential.counter(), request.headerAndBody(), true));
            return expected != null && MessageDigest.isEqual(expected, credential.signature());
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    private static byte[] signedBytes(Envelope e, int counter, byte[] message, boolean mac) {
        if (!e.atLeast(2, mac ? 7 : 6)) {
            return message;
        }
        WireWriter out = new WireWriter(message.length + 16).int1(e.major()).int1(e.minor());
        if (e.atLeast(2, 8)) {
            out.int1(e.suggestMajor()).int1(e.suggestMinor());
        }
        return out.int4(e.sessionId()).int4(e.requestId()).int4(counter).raw(message).toByteArray();
    }

    private static byte[] credential(int counter, String type, String hash, byte[] signature) {
        byte[] hashName = hash.getBytes(StandardCharsets.US_ASCII);
        return new WireWriter(64 + signature.length).int1(0).int1(0).int2(0).bytes(new byte[0]).int4(counter)
                .bytes(type.getBytes(StandardCharsets.US_ASCII)).int4(8 + hashName.length + signature.length)
                .bytes(hashName).bytes(signature).toByteArray();
    }
}
