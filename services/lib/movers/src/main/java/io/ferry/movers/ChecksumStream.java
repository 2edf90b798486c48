package io.ferry.movers;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;

/**
 * Computes the copy's checksum (ADLER32 or MD5) and counts bytes as data streams through, so the source is read
 * once. Counting only (no checksum) when nobody asked for one: FTS3's verify_checksum=none, and a copy that need not
 * pay for it.
 */
public final class ChecksumStream extends FilterInputStream {

    private final ChecksumAlgorithm.Sum sum;
    private final TransferProgress progress;
    private final RateLimit limit;
    private long bytes;
    private String hex;

    /** Sums {@code in} with {@code algorithm}. */
    public ChecksumStream(InputStream in, ChecksumAlgorithm algorithm) {
        this(in, null, algorithm);
    }

    /** Counts and checksums bytes that a relay moves itself, reported through {@link #moved(ByteBuffer)}; {@code algorithm} null: counts only. */
    static ChecksumStream counter(TransferProgress progress, ChecksumAlgorithm algorithm) {
        return counter(progress, algorithm, RateLimit.NONE);
    }

    /** A {@link #counter} whose bytes also wait for {@code limit}. */
    static ChecksumStream counter(TransferProgress progress, ChecksumAlgorithm algorithm, RateLimit limit) {
        return new ChecksumStream(InputStream.nullInputStream(), progress, algorithm, limit);
    }

    /** Also reports every read to {@code progress} (if any), and fails reads once it is aborted; {@code algorithm} null: counts only. */
    public ChecksumStream(InputStream in, TransferProgress progress, ChecksumAlgorithm algorithm) {
        this(in, progress, algorithm, RateLimit.NONE);
    }

    /** Also waits after each read as {@code limit} asks (the copy's rate cap; {@link RateLimit#NONE}: never). */
    public ChecksumStream(InputStream in, TransferProgress progress, ChecksumAlgorithm algorithm, RateLimit limit) {
        super(in);
        this.progress = progress;
        this.limit = limit == null ? RateLimit.NONE : limit;
        this.sum = algorithm == null ? null : algorithm.start();
    }

    /** Waits until {@code n} more bytes keep the copy within its rate cap. */
    private void paced(long n) throws IOException {
        if (n > 0 && limit != RateLimit.NONE) {
            limit.acquire(n, progress == null ? () -> { } : progress::rateLimited);
        }
    }

    @Override
    public int read() throws IOException {
        int b = super.read();
        if (progress != null) {
            progress.moved(b >= 0 ? 1 : 0);
        }
        if (b >= 0) {
            if (sum != null) {
                sum.update(new byte[] {(byte) b}, 0, 1);
            }
            bytes++;
            paced(1);
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
            if (sum != null) {
                sum.update(buf, off, n);
            }
            bytes += n;
            paced(n);
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
        if (sum != null) {
            int p = data.position();
            sum.update(data);
            data.position(p);
        }
        bytes += n;
        paced(n);
    }

    public long bytes() {
        return bytes;
    }

    /** The checksum of what was read as hex digits, or null when it was not computed; the reads end with the first call. */
    public String hex() {
        if (hex == null && sum != null) {
            hex = sum.hex();  // an MD5 digest is finished by reading it
        }
        return hex;
    }
}
