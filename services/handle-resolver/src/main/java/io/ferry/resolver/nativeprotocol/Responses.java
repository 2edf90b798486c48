package io.ferry.resolver.nativeprotocol;

import io.ferry.resolver.nativeprotocol.wire.WireWriter;
import io.ferry.resolver.nativeprotocol.wire.NativeValue;
import io.ferry.resolver.nativeprotocol.wire.MessageHeader;
import io.ferry.resolver.nativeprotocol.wire.Envelope;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * Encodes the answers to requests: header (the request's operation, a response code, flags), the digest of the
 * request when it asked for one (and always in a challenge, which the answer signs), the body, and an empty
 * credential. Digests are SHA-256 for protocol 2.7 and later, SHA-1 before, as CNRI's library expects.
 */
public final class Responses {

    public static final int RC_SUCCESS = 1;
    public static final int RC_ERROR = 2;
    public static final int RC_PROTOCOL_ERROR = 4;
    public static final int RC_OPERATION_NOT_SUPPORTED = 5;
    public static final int RC_HANDLE_NOT_FOUND = 100;
    public static final int RC_VALUES_NOT_FOUND = 200;
    public static final int RC_INVALID_ADMIN = 400;
    public static final int RC_INSUFFICIENT_PERMISSIONS = 401;
    public static final int RC_AUTHENTICATION_NEEDED = 402;
    public static final int RC_AUTHENTICATION_FAILED = 403;
    public static final int RC_AUTHEN_TIMEOUT = 405;
    public static final int RC_SERVER_TOO_BUSY = 3;
    public static final int RC_SESSION_TIMEOUT = 500;
    public static final int RC_SESSION_FAILED = 501;
    public static final int RC_INVALID_SESSION_KEY = 502;
    public static final int RC_SESSION_MESSAGE_REJECTED = 505;

    private static final int VALIDITY_SECONDS = 12 * 3600;

    public static final byte HASH_SHA1 = 2;
    public static final byte HASH_SHA256 = 3;

    /** Flags of the request that describe its answer too; the digest flag is set only when a digest is sent. */
    private static final int ECHOED_FLAGS = MessageHeader.FLAG_AUTHORITATIVE | MessageHeader.FLAG_RECURSIVE
            | MessageHeader.FLAG_KEEP_ALIVE | MessageHeader.FLAG_PUBLIC_ONLY;

    private Responses() {
    }

    public static byte[] resolution(NativeRequest req, byte[] handle, List<NativeValue> values) {
        return resolution(req, handle, valueList(values));
    }

    /** A resolution whose values are already encoded ({@link #valueList}). */
    public static byte[] resolution(NativeRequest req, byte[] handle, byte[] encodedValues) {
        return message(req, RC_SUCCESS, false, out -> out.bytes(handle).raw(encodedValues));
    }

    /** A count, then the values: the part of a resolution that depends on the handle's values only. */
    public static byte[] valueList(List<NativeValue> values) {
        WireWriter out = new WireWriter(256);
        out.int4(values.size());
        values.forEach(v -> v.encode(out));
        return out.toByteArray();
    }

    public static byte[] error(NativeRequest req, int responseCode, String message) {
        return message(req, responseCode, false, out -> out.bytes(message.getBytes(StandardCharsets.UTF_8)));
    }

    /** Success without a body: delete, add, modify, remove. */
    public static byte[] done(NativeRequest req) {
        return message(req, RC_SUCCESS, false, out -> {
        });
    }

    /** Success of a create; the handle only when it was minted here. */
    public static byte[] created(NativeRequest req, byte[] mintedHandle) {
        return message(req, RC_SUCCESS, false, out -> {
            if (mintedHandle != null) {
                out.bytes(mintedHandle);
            }
        });
    }

    public static byte[] challenge(NativeRequest req, byte[] nonce) {
        return message(req, RC_AUTHENTICATION_NEEDED, true, out -> out.bytes(nonce));
    }

    /** A session set up: the key exchange mode, and what the client derives the session key from. */
    public static byte[] sessionSetup(NativeRequest req, int keyExchangeMode, byte[] data) {
        return message(req, RC_SUCCESS, false, out -> out.int2(keyExchangeMode).bytes(data));
    }

    /**
     * {@code message} (as encoded here, with an empty credential) with {@code credential} in place of the empty one:
     * a signed answer.
     */
    static byte[] withCredential(byte[] message, byte[] credential) {
        int unsigned = message.length - 4;
        return new WireWriter(unsigned + 4 + credential.length).raw(Arrays.copyOf(message, unsigned)).bytes(credential).toByteArray();
    }

    /** The header and body of {@code message} (as encoded here): what its credential signs. */
    static byte[] headerAndBody(byte[] message) {
        return Arrays.copyOf(message, message.length - 4);
    }

    public static byte[] siteInfo(NativeRequest req, byte[] siteRecord) {
        return message(req, RC_SUCCESS, false, out -> out.raw(siteRecord));
    }

    private static byte[] message(NativeRequest req, int responseCode, boolean forceDigest, Consumer<WireWriter> body) {
        boolean digest = forceDigest || req.header().has(MessageHeader.FLAG_REQUEST_DIGEST);
        byte hashType = digestType(req.envelope());
        WireWriter out = new WireWriter(256);
        int flags = (req.header().opFlags() & ECHOED_FLAGS) | MessageHeader.FLAG_AUTHORITATIVE | (digest ? MessageHeader.FLAG_REQUEST_DIGEST : 0);
        new MessageHeader(req.opCode(), responseCode, flags, 0, req.header().recursionCount(), expiration(), 0).encode(out);
        int bodyStart = out.size();
        if (digest) {
            out.int1(hashType).raw(digest(hashType, req.headerAndBody()));
        }
        body.accept(out);
        int bodyLength = out.size() - bodyStart;
        out.int4At(bodyStart - 4, bodyLength);
        out.int4(0);
        return out.toByteArray();
    }

    /** CNRI's client drops answers whose expiration has passed; its own messages are valid for twelve hours. */
    private static int expiration() {
        return (int) (System.currentTimeMillis() / 1000) + VALIDITY_SECONDS;
    }

    static byte digestType(Envelope e) {
        return e.atLeast(2, 7) ? HASH_SHA256 : HASH_SHA1;
    }

    static byte[] digest(byte hashType, byte[]... parts) {
        try {
            MessageDigest md = MessageDigest.getInstance(hashType == HASH_SHA256 ? "SHA-256" : "SHA-1");
            for (byte[] p : parts) {
                md.update(p);
            }
            return md.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
