package io.ferry.movers;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.zip.Adler32;

/**
 * Computes ADLER32 and counts bytes as data streams through, so the source is read once. Counting only (no
 * checksum) when nobody asked for one: FTS3's verify_checksum=none, and a copy that need not pay for it.
 */
public final class Adler32Stream extends FilterInputStream {

    private final Adler32 adler = new Adler32();
    private final TransferProgress progress;
    private final boolean checksum;
    private long bytes;

    public Adler32Stream(InputStream in) {
        this(in, null);
    }

    /** Also reports every read to {@code progress}, and fails reads once it is aborted. */
    public Adler32Stream(InputStream in, TransferProgress progress) {
        this(in, progress, true);
    }

    /** Counts (and checksums) bytes that a relay moves itself, reported through {@link #moved(ByteBuffer)}. */
    static Adler32Stream counter(TransferProgress progress, boolean checksum) {
        return new Adler32Stream(InputStream.nullInputStream(), progress, checksum);
    }

    public Adler32Stream(InputStream in, TransferProgress progress, boolean checksum) {
        super(in);
        this.progress = progress;
        this.checksum = checksum;
    }

    @Override
    public int read() throws IOException {
        int b = super.read();
        if (progress != null) {
            progress.moved(b >= 0 ? 1 : 0);
        }
        if (b >= 0) {
            if (checksum) {
                adler.update(b);
            }
            bytes++;
        }
        return b;
    }

    @Override
    public int read(byte[] buf, int off, int len) throws IOException {
        int n = super.read(buf, off, len);
        if (progress != null) {
            progress.moved(Math.max(0, n));
        }
        if (n > 0) {
            if (checksum) {
                adler.update(buf, off, n);
            }
            bytes += n;
        }
        return n;
    }

    /**
     * Counts and checksums bytes that went around the stream: the remaining bytes of {@code data}, whose position is
     * left as it was (the mover's direct-buffer copy reads the socket itself).
     */
    void moved(ByteBuffer data) throws IOException {
        int n = data.remaining();
        if (progress != null) {
            progress.moved(n);
        }
        if (checksum) {
            int p = data.position();
            adler.update(data);
            data.position(p);
        }
        bytes += n;
    }

    public long bytes() {
        return bytes;
    }

    /** The ADLER32 of what was read, or null when it was not computed. */
    public String hex() {
        return checksum ? String.format("%08x", adler.getValue()) : null;
    }
}
