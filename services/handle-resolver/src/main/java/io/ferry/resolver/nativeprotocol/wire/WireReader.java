package io.ferry.resolver.nativeprotocol.wire;

import java.util.Arrays;

/** Reads the Handle protocol's big-endian integers and length-prefixed byte strings, refusing anything out of bounds. */
public final class WireReader {

    /** No list or string in a message can be longer than a whole message. */
    public static final int MAX_MESSAGE = 262_144;

    private final byte[] buf;
    private final int end;
    private int pos;

    public WireReader(byte[] buf, int offset, int end) {
        if (offset < 0 || end > buf.length || offset > end) {
            throw new ProtocolException("message bounds outside the buffer");
        }
        this.buf = buf;
        this.pos = offset;
        this.end = end;
    }

    public int position() {
        return pos;
    }

    public boolean atEnd() {
        return pos >= end;
    }

    private void need(int n) {
        if (n < 0 || end - pos < n) {
            throw new ProtocolException("message ends early");
        }
    }

    public byte int1() {
        need(1);
        return buf[pos++];
    }

    public int int2() {
        need(2);
        int v = ((buf[pos] & 0xff) << 8) | (buf[pos + 1] & 0xff);
        pos += 2;
        return v;
    }

    public int int4() {
        need(4);
        int v = ((buf[pos] & 0xff) << 24) | ((buf[pos + 1] & 0xff) << 16) | ((buf[pos + 2] & 0xff) << 8) | (buf[pos + 3] & 0xff);
        pos += 4;
        return v;
    }

    public byte[] raw(int n) {
        need(n);
        byte[] out = Arrays.copyOfRange(buf, pos, pos + n);
        pos += n;
        return out;
    }

    /** A 4-byte length, then that many bytes. */
    public byte[] bytes() {
        int n = int4();
        if (n > MAX_MESSAGE) {
            throw new ProtocolException("byte string longer than a message");
        }
        return raw(n);
    }

    /** A 4-byte count, then that many 4-byte integers. */
    public int[] ints() {
        int n = count(4);
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            out[i] = int4();
        }
        return out;
    }

    /** A 4-byte count, then that many length-prefixed byte strings. */
    public byte[][] byteStrings() {
        int n = count(4);
        byte[][] out = new byte[n][];
        for (int i = 0; i < n; i++) {
            out[i] = bytes();
        }
        return out;
    }

    /** A 4-byte element count, checked against what is left (each element at least {@code minSize} bytes). */
    public int count(int minSize) {
        int n = int4();
        if (n < 0 || (long) n * minSize > end - pos) {
            throw new ProtocolException("list longer than the message");
        }
        return n;
    }
}
