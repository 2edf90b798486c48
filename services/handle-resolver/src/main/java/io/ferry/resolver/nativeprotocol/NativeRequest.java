package io.ferry.resolver.nativeprotocol;

import io.ferry.resolver.nativeprotocol.wire.WireReader;
import io.ferry.resolver.nativeprotocol.wire.ProtocolException;
import io.ferry.resolver.nativeprotocol.wire.MessageHeader;
import io.ferry.resolver.nativeprotocol.wire.Envelope;
import java.util.Arrays;

/**
 * A received request: its envelope, header, the encoded header and body (what request digests are taken of, what a
 * challenge's answer signs, what a session MAC covers), and the credential section after the body (empty when the
 * request carries none).
 */
public record NativeRequest(Envelope envelope, MessageHeader header, byte[] headerAndBody, byte[] credential) {

    private static final byte[] NONE = new byte[0];

    public NativeRequest(Envelope envelope, MessageHeader header, byte[] headerAndBody) {
        this(envelope, header, headerAndBody, NONE);
    }

    /** Decodes the message that follows {@code envelope} in {@code buf} (header, body, and the credential after it). */
    public static NativeRequest decode(Envelope envelope, byte[] buf, int offset) {
        return decode(envelope, buf, offset, envelope.messageLength());
    }

    /** As {@link #decode(Envelope, byte[], int)} for a message of {@code length} bytes (a decrypted one's). */
    static NativeRequest decode(Envelope envelope, byte[] buf, int offset, int length) {
        int end = offset + length;
        WireReader in = new WireReader(buf, offset, end);
        MessageHeader header = MessageHeader.decode(in);
        if (header.bodyLength() > end - in.position()) {
            throw new ProtocolException("body longer than the message");
        }
        int bodyEnd = offset + MessageHeader.SIZE + header.bodyLength();
        byte[] credential = NONE;
        if (end - bodyEnd >= 4) {
            // A credential longer than what is left is no credential (the request is then answered as unsigned).
            int credentialLength = new WireReader(buf, bodyEnd, end).int4();
            if (credentialLength > 0 && credentialLength <= end - bodyEnd - 4) {
                credential = Arrays.copyOfRange(buf, bodyEnd + 4, bodyEnd + 4 + credentialLength);
            }
        }
        return new NativeRequest(envelope, header, Arrays.copyOfRange(buf, offset, bodyEnd), credential);
    }

    public WireReader body() {
        return new WireReader(headerAndBody, MessageHeader.SIZE, headerAndBody.length);
    }

    public int opCode() {
        return header.opCode();
    }
}
