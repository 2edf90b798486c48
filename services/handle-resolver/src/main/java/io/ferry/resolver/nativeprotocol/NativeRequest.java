package io.ferry.resolver.nativeprotocol;

import java.util.Arrays;

/**
 * A received request: its envelope, header, and the encoded header and body (what request digests are taken of,
 * and what a challenge's answer signs), from which the body is decoded by operation.
 */
public record NativeRequest(Envelope envelope, MessageHeader header, byte[] headerAndBody) {

    /** Decodes the message that follows {@code envelope} in {@code buf} (header, body, and the credential after it). */
    public static NativeRequest decode(Envelope envelope, byte[] buf, int offset) {
        int end = offset + envelope.messageLength();
        WireReader in = new WireReader(buf, offset, end);
        MessageHeader header = MessageHeader.decode(in);
        if (header.bodyLength() > end - in.position()) {
            throw new ProtocolException("body longer than the message");
        }
        return new NativeRequest(envelope, header, Arrays.copyOfRange(buf, offset, offset + MessageHeader.SIZE + header.bodyLength()));
    }

    public WireReader body() {
        return new WireReader(headerAndBody, MessageHeader.SIZE, headerAndBody.length);
    }

    public int opCode() {
        return header.opCode();
    }
}
