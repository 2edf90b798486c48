package io.ferry.resolver.nativeprotocol.wire;

import java.util.Arrays;

/** Writes the Handle protocol's big-endian integers and length-prefixed byte strings into a growing buffer. */
public final class WireWriter {

    private byte[] buf;
    private int size;

    public WireWriter(int capacity) {
        buf = new byte[Math.max(capacity, 16)];
    }

    private void ensure(int n) {
        if (size + n > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + n));
        }
    }

    public int size() {
        return size;
    }

    public WireWriter int1(int v) {
        ensure(1);
        buf[size++] = (byte) v;
        return this;
    }

    public WireWriter int2(int v) {
        ensure(2);
        buf[size++] = (byte) (v >>> 8);
        buf[size++] = (byte) v;
        return this;
    }

    public WireWriter int4(int v) {
        ensure(4);
        buf[size++] = (byte) (v >>> 24);
        buf[size++] = (byte) (v >>> 16);
        buf[size++] = (byte) (v >>> 8);
        buf[size++] = (byte) v;
        return this;
    }

    /** Overwrites the 4-byte integer at {@code at} (a length written before its contents were known). */
    public void int4At(int at, int v) {
        buf[at] = (byte) (v >>> 24);
        buf[at + 1] = (byte) (v >>> 16);
        buf[at + 2] = (byte) (v >>> 8);
        buf[at + 3] = (byte) v;
    }

    public WireWriter raw(byte[] b) {
        ensure(b.length);
        System.arraycopy(b, 0, buf, size, b.length);
        size += b.length;
        return this;
    }

    public WireWriter bytes(byte[] b) {
        return int4(b.length).raw(b);
    }

    public WireWriter ints(int[] values) {
        int4(values.length);
        for (int v : values) {
            int4(v);
        }
        return this;
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(buf, size);
    }
}
