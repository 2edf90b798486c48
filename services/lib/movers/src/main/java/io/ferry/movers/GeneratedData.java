package io.ferry.movers;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import java.util.zip.Adler32;

/**
 * Pseudo-random bytes of a given length, produced as they are written and summed (ADLER32) on the way: the content
 * of a file Ferry creates itself (a link probe's source), random so that no compressing link flatters it, and never
 * held whole in memory.
 */
final class GeneratedData {

    static final int CHUNK = 1 << 16;

    private final long size;
    private final SplittableRandom random;
    private final Adler32 sum = new Adler32();
    private long produced;

    GeneratedData(long size, long seed) {
        if (size < 0) {
            throw new IllegalArgumentException("size " + size + " < 0");
        }
        this.size = size;
        this.random = new SplittableRandom(seed);
    }

    /** The next chunk (at most {@link #CHUNK} bytes) into {@code buffer}, flipped for reading; false once all was produced. */
    boolean next(ByteBuffer buffer) {
        buffer.clear();
        int n = (int) Math.min(Math.min(buffer.capacity(), CHUNK), size - produced);
        if (n <= 0) {
            buffer.flip();
            return false;
        }
        byte[] chunk = new byte[n];
        for (int i = 0; i < n; i += 8) {
            long v = random.nextLong();
            for (int j = 0; j < 8 && i + j < n; j++) {
                chunk[i + j] = (byte) (v >>> (8 * j));
            }
        }
        sum.update(chunk, 0, n);
        buffer.put(chunk).flip();
        produced += n;
        return true;
    }

    long produced() {
        return produced;
    }

    /** ADLER32 of what was produced so far, 8 hex digits. */
    String adler32() {
        return String.format("%08x", sum.getValue());
    }
}
