package io.ferry.resolver.nativeprotocol.wire;

/**
 * The 20-byte envelope before every message: the protocol version the message is written in, the version its
 * sender suggests (with the compressed/encrypted/truncated flags in the high bits of that byte), the session and
 * request ids, the packet number of a multi-packet UDP message, and the length of the whole message.
 */
public record Envelope(int major, int minor, int suggestMajor, int suggestMinor, boolean compressed, boolean encrypted,
                       boolean truncated, int sessionId, int requestId, int messageId, int messageLength) {

    public static final int SIZE = 20;

    /** What this server speaks and suggests: Handle protocol 2.11, as CNRI's 9.x library. */
    public static final int OUR_MAJOR = 2;
    public static final int OUR_MINOR = 11;

    private static final int COMPRESSED = 0x80;
    private static final int ENCRYPTED = 0x40;
    private static final int TRUNCATED = 0x20;

    public static Envelope decode(byte[] buf, int offset) {
        WireReader in = new WireReader(buf, offset, offset + SIZE);
        int major = in.int1() & 0xff;
        int minor = in.int1() & 0xff;
        int flags = in.int1() & 0xff;
        int suggestMinor = in.int1() & 0xff;
        int suggestMajor = flags & 0x03;
        if (suggestMajor == 0) {
            suggestMajor = major;
            suggestMinor = minor;
        }
        Envelope e = new Envelope(major, minor, suggestMajor, suggestMinor, (flags & COMPRESSED) != 0, (flags & ENCRYPTED) != 0,
                (flags & TRUNCATED) != 0, in.int4(), in.int4(), in.int4(), in.int4());
        if (e.messageLength < 0 || e.messageLength > WireReader.MAX_MESSAGE) {
            throw new ProtocolException("invalid message length " + e.messageLength);
        }
        return e;
    }

    public void encode(WireWriter out) {
        out.int1(major).int1(minor)
                .int1((compressed ? COMPRESSED : 0) | (encrypted ? ENCRYPTED : 0) | (truncated ? TRUNCATED : 0) | (suggestMajor & 0x03))
                .int1(suggestMinor).int4(sessionId).int4(requestId).int4(messageId).int4(messageLength);
    }

    /** The envelope of the answer to a message under this envelope: the lower of the two versions, our suggestion. */
    public Envelope reply(int session, int length) {
        return reply(session, length, false);
    }

    /** As {@link #reply(int, int)}, for an answer encrypted under its session's key when {@code encryptedAnswer}. */
    public Envelope reply(int session, int length, boolean encryptedAnswer) {
        boolean older = major < OUR_MAJOR || (major == OUR_MAJOR && minor < OUR_MINOR);
        return new Envelope(older ? major : OUR_MAJOR, older ? minor : OUR_MINOR, OUR_MAJOR, OUR_MINOR, false, encryptedAnswer, false,
                session, requestId, 0, length);
    }

    public boolean atLeast(int maj, int min) {
        return major > maj || (major == maj && minor >= min);
    }
}
