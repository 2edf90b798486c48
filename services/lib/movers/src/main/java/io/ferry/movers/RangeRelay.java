package io.ferry.movers;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * An upload's body read from the source in parallel Range requests of {@link #CHUNK} bytes, one per stream at a
 * time, written in order. Each range lands in pooled direct buffers and is counted and checksummed in order as it is
 * written, so ADLER32 stays the one of the whole file. Memory is bounded by the window: at most two ranges per stream
 * are held, off the Java heap, and no more than the copy's reservation holds (8 MiB heap arrays per range, as before,
 * put up to 256 MiB on the heap per 16-stream copy).
 */
final class RangeRelay implements HttpWire.Body {

    static final long CHUNK = 4L << 20;

    /** Buffers one range fills. */
    static final int BUFFERS_PER_RANGE = (int) (CHUNK / DirectBuffers.SIZE);

    private final HttpWire wire;
    private final URI source;
    /** The source's credential headers (its bearer token), sent with every range. */
    private final Map<String, String> sourceHeaders;
    private final long size;
    private final ChecksumStream counter;
    private final ExecutorService pool;
    private final DirectBuffers.Reservation buffers;
    private final int chunks;
    private final Semaphore window;
    /** Each range's buffers once fetched; emptied (null) when written, so no buffer goes back to the pool twice. */
    private final AtomicReferenceArray<CompletableFuture<List<ByteBuffer>>> parts;

    /** {@code buffers} must hold at least one range ({@link #BUFFERS_PER_RANGE}). */
    RangeRelay(HttpWire wire, URI source, Map<String, String> sourceHeaders, long size, int streams, ChecksumStream counter, ExecutorService pool,
               DirectBuffers.Reservation buffers) {
        this.wire = wire;
        this.source = source;
        this.sourceHeaders = sourceHeaders;
        this.size = size;
        this.counter = counter;
        this.pool = pool;
        this.buffers = buffers;
        this.chunks = (int) ((size + CHUNK - 1) / CHUNK);
        this.window = new Semaphore(Math.max(1, Math.min(streams * 2, buffers.size() / BUFFERS_PER_RANGE)));
        this.parts = new AtomicReferenceArray<>(chunks);
        for (int i = 0; i < chunks; i++) {
            parts.set(i, new CompletableFuture<>());
        }
    }

    @Override
    public void writeTo(HttpWire.Sink sink) throws IOException {
        pool.submit(this::dispatch);
        for (int i = 0; i < chunks; i++) {
            List<ByteBuffer> part;
            try {
                part = parts.get(i).get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted");
            } catch (ExecutionException e) {
                throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
            }
            try {
                for (ByteBuffer b : part) {
                    counter.moved(b);
                    sink.write(b);
                }
            } finally {
                part.forEach(buffers::give);
                parts.set(i, null);
                window.release();
            }
        }
    }

    /** Starts one range request per free place in the window, in order. */
    private void dispatch() {
        for (int i = 0; i < chunks; i++) {
            int index = i;
            try {
                window.acquire();
            } catch (InterruptedException e) {
                return;
            }
            pool.submit(() -> fetch(index));
        }
    }

    private void fetch(int index) {
        long from = index * CHUNK;
        long to = Math.min(size, from + CHUNK) - 1;
        List<ByteBuffer> filled = new ArrayList<>();
        Map<String, String> headers = new java.util.HashMap<>(sourceHeaders);
        headers.put("Range", "bytes=" + from + "-" + to);
        try (HttpWire.Response r = wire.send("GET", source, headers)) {
            if (r.status != 206 || r.contentLength() != to - from + 1) {
                r.discard();
                throw new IOException("range " + from + "-" + to + " answered " + r.status + " with " + r.contentLength() + " bytes");
            }
            for (long left = to - from + 1; left > 0; ) {
                ByteBuffer b = buffers.take();
                filled.add(b);
                r.readFully(b, left);
                left -= b.remaining();
            }
            CompletableFuture<List<ByteBuffer>> part = parts.get(index);
            if (part == null || !part.complete(filled)) {
                filled.forEach(buffers::give);  // the copy was abandoned meanwhile
            }
        } catch (Exception e) {
            filled.forEach(buffers::give);
            CompletableFuture<List<ByteBuffer>> part = parts.get(index);
            if (part != null) {
                part.completeExceptionally(e);
            }
        }
    }

    /** Abandons ranges not yet written (a failed upload): their buffers go back to the pool as they arrive. */
    @Override
    public void close() {
        for (int i = 0; i < chunks; i++) {
            CompletableFuture<List<ByteBuffer>> part = parts.getAndSet(i, null);
            if (part != null && !part.completeExceptionally(new IOException("abandoned")) && !part.isCompletedExceptionally()) {
                part.join().forEach(buffers::give);
            }
        }
    }
}
