package io.ferry.scheduler.mover;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;

/**
 * Reads its source on another thread into a few large buffers, so that reading the source (and checksumming it, when
 * the source is an {@link Adler32Stream}) overlaps with writing to the destination — the way {@code curl | curl}
 * overlaps two processes. Memory stays bounded: at most {@code depth} buffers are in flight.
 */
final class ReadAheadStream extends InputStream {

    private static final byte[] END = new byte[0];

    private final BlockingQueue<Object> filled;
    /** Buffers handed back by the reader side for reuse: large arrays are not allocated per chunk. */
    private final BlockingQueue<byte[]> free;
    private final int bufferSize;
    private volatile boolean closed;
    private byte[] current = new byte[0];
    private int length;
    private int position;
    private boolean ended;

    ReadAheadStream(InputStream source, int bufferSize, int depth, ExecutorService pool) {
        this.filled = new ArrayBlockingQueue<>(depth + 1);
        this.free = new ArrayBlockingQueue<>(depth + 2);
        this.bufferSize = bufferSize;
        pool.submit(() -> {
            try {
                while (!closed) {
                    byte[] buf = free.poll();
                    if (buf == null) {
                        buf = new byte[bufferSize];
                    }
                    int n = source.readNBytes(buf, 0, bufferSize);
                    if (n > 0) {
                        filled.put(n == bufferSize ? buf : java.util.Arrays.copyOf(buf, n));
                    }
                    if (n < bufferSize) {
                        filled.put(END);
                        return;
                    }
                }
            } catch (IOException | RuntimeException e) {
                offerQuietly(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    private void offerQuietly(Exception e) {
        try {
            filled.put(e);
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        while (position >= length) {
            if (ended) {
                return -1;
            }
            Object next;
            try {
                next = filled.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted");
            }
            if (next instanceof IOException io) {
                throw io;
            }
            if (next instanceof RuntimeException re) {
                throw re;
            }
            recycle();
            current = (byte[]) next;
            if (current == END) {
                ended = true;
                return -1;
            }
            length = current.length;
            position = 0;
        }
        int n = Math.min(len, length - position);
        if (n == 0) {
            return 0;
        }
        System.arraycopy(current, position, b, off, n);
        position += n;
        return n;
    }

    /** Writes the next {@code length} bytes straight from the read-ahead buffers (no copy through a caller's buffer). */
    void writeTo(java.io.OutputStream out, long length) throws IOException {
        long left = length;
        while (left > 0) {
            if (position >= this.length) {
                byte[] one = new byte[0];
                if (read(one, 0, 0) < 0 && position >= this.length) {
                    throw new java.io.EOFException("the source ended " + left + " bytes early");
                }
                if (position >= this.length) {
                    continue;
                }
            }
            int n = (int) Math.min(left, this.length - position);
            out.write(current, position, n);
            position += n;
            left -= n;
        }
    }

    private void recycle() {
        if (current != null && current.length == bufferSize) {
            free.offer(current);
        }
    }

    @Override
    public void close() {
        closed = true;
        filled.clear();
    }
}
