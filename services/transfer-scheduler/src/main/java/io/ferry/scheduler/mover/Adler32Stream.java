package io.ferry.scheduler.mover;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.Adler32;

/** Computes ADLER32 and counts bytes as data streams through, so the source is read once. */
public final class Adler32Stream extends FilterInputStream {

    private final Adler32 adler = new Adler32();
    private final TransferProgress progress;
    private long bytes;

    public Adler32Stream(InputStream in) {
        this(in, null);
    }

    /** Also reports every read to {@code progress}, and fails reads once it is aborted. */
    public Adler32Stream(InputStream in, TransferProgress progress) {
        super(in);
        this.progress = progress;
    }

    @Override
    public int read() throws IOException {
        int b = super.read();
        if (progress != null) {
            progress.moved(b >= 0 ? 1 : 0);
        }
        if (b >= 0) {
            adler.update(b);
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
            adler.update(buf, off, n);
            bytes += n;
        }
        return n;
    }

    public long bytes() {
        return bytes;
    }

    public String hex() {
        return String.format("%08x", adler.getValue());
    }
}
