package io.ferry.movers;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * An upload's body taken from a download: each buffer is read from the GET answer, counted and checksummed, then
 * written to the PUT, through pooled direct buffers (the bytes never pass through the Java heap). Large bodies are
 * read ahead on a second thread so that reading and checksumming overlap with writing, the way {@code curl | curl}
 * overlaps two processes; at most {@code DEPTH} buffers are in flight, fewer when the copy's reservation is smaller.
 */
final class BodyRelay implements HttpWire.Body {

    static final int DEPTH = 8;

    private final HttpWire.Response source;
    private final long length;
    private final ChecksumStream counter;
    private final ExecutorService readers;
    private final DirectBuffers.Reservation buffers;
    private final BlockingQueue<Object> filled = new ArrayBlockingQueue<>(DEPTH + 1);
    private final BlockingQueue<ByteBuffer> free = new ArrayBlockingQueue<>(DEPTH);
    private volatile Future<?> reader;
    /** Counted down when the read-ahead has stopped touching the source and the buffers. */
    private final CountDownLatch readerDone = new CountDownLatch(1);

    /**
     * With {@code readers} null, or a reservation of one buffer, the body is read and written in turn on the caller's
     * thread.
     */
    BodyRelay(HttpWire.Response source, long length, ChecksumStream counter, ExecutorService readers, DirectBuffers.Reservation buffers) {
        this.source = source;
        this.length = length;
        this.counter = counter;
        this.readers = buffers.size() > 1 ? readers : null;
        this.buffers = buffers;
    }

    @Override
    public void writeTo(HttpWire.Sink sink) throws IOException {
        if (readers == null) {
            ByteBuffer buf = buffers.take();
            try {
                for (long left = length; left > 0; ) {
                    left -= fill(buf, left);
                    sink.write(buf);
                }
            } finally {
                buffers.give(buf);
            }
            return;
        }
        for (int i = 0; i < Math.min(DEPTH, buffers.size()); i++) {
            free.add(buffers.take());
        }
        reader = readers.submit(this::readAhead);
        long left = length;
        while (left > 0) {
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
            ByteBuffer buf = (ByteBuffer) next;
            left -= buf.remaining();
            sink.write(buf);
            free.add(buf);
        }
    }

    private void readAhead() {
        try {
            for (long left = length; left > 0; ) {
                ByteBuffer buf = free.take();
                left -= fill(buf, left);
                filled.put(buf);
            }
        } catch (IOException | RuntimeException e) {
            filled.offer(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            readerDone.countDown();
        }
    }

    /** Fills {@code buf} from the source (up to {@code left} bytes), counted and checksummed, flipped for writing. */
    private int fill(ByteBuffer buf, long left) throws IOException {
        source.readFully(buf, left);
        counter.moved(buf);
        return buf.remaining();
    }

    /** Stops the read-ahead (a failed upload) and returns the buffers to the pool. */
    @Override
    public void close() {
        Future<?> r = reader;
        if (r != null) {
            r.cancel(true);
            try {
                if (!readerDone.await(5, TimeUnit.SECONDS)) {
                    return;  // still stuck in a read: its buffers are left to the garbage collector
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        free.forEach(buffers::give);
        free.clear();
        filled.forEach(o -> {
            if (o instanceof ByteBuffer b) {
                buffers.give(b);
            }
        });
        filled.clear();
    }
}
