package io.ferry.movers;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;

/**
 * A PUT whose body is written through a channel: the request runs on its own thread and takes each buffer the
 * writer hands it, so the caller's buffer is free again once {@link #write} returns and no byte is copied. The HTTP
 * exchange wants its body pushed into the connection; the streamed copy wants to push buffers one by one; the hand-off
 * joins the two.
 */
final class WebDavUpload implements StorageAccess.Upload {

    /** How often a waiting side looks whether the other one gave up. */
    private static final long POLL_MILLIS = 50;

    private final URI url;
    private final String phase;
    private final SynchronousQueue<ByteBuffer> handoff = new SynchronousQueue<>();
    /** One permit per buffer the request has written: the writer may reuse it. */
    private final Semaphore written = new Semaphore(0);
    private final Future<HttpWire.Response> put;
    private volatile boolean abandoned;
    private boolean open = true;

    WebDavUpload(HttpWire wire, URI url, Map<String, String> headers, long size, ExecutorService threads, String phase) {
        this.url = url;
        this.phase = phase;
        HttpWire.Body body = sink -> {
            for (long left = size; left > 0; ) {
                ByteBuffer next = take();
                left -= next.remaining();
                if (left < 0) {
                    throw new IOException("the upload was given more than the announced " + size + " bytes");
                }
                try {
                    sink.write(next);
                } finally {
                    written.release();
                }
            }
        };
        this.put = threads.submit(() -> wire.send("PUT", url, headers, body, size));
    }

    private ByteBuffer take() throws IOException {
        try {
            while (true) {
                ByteBuffer next = handoff.poll(POLL_MILLIS, TimeUnit.MILLISECONDS);
                if (next != null) {
                    return next;
                }
                if (abandoned) {
                    throw new IOException("the upload was abandoned");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("the upload was stopped");
        }
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        if (!open) {
            throw new ClosedChannelException();
        }
        int n = src.remaining();
        if (n == 0) {
            return 0;
        }
        try {
            while (!handoff.offer(src, POLL_MILLIS, TimeUnit.MILLISECONDS)) {
                failIfEnded();
            }
            while (!written.tryAcquire(POLL_MILLIS, TimeUnit.MILLISECONDS)) {
                failIfEnded();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("the upload was stopped");
        }
        return n;
    }

    /** The PUT ended before it took all its body: its failure, or the server's early answer. */
    private void failIfEnded() throws IOException {
        if (!put.isDone()) {
            return;
        }
        try {
            HttpWire.Response early = put.get();
            early.abort();
            throw new IOException(url + " answered HTTP " + early.status + " before the upload ended");
        } catch (ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("the upload was stopped");
        }
    }

    @Override
    public void commit() throws MoverException {
        open = false;
        try (HttpWire.Response answer = put.get()) {
            answer.discard();
            HttpMover.check(answer.status, phase, "destination " + url);
        } catch (ExecutionException e) {
            throw HttpMover.ioFailure(e.getCause(), phase);
        } catch (IOException e) {
            throw HttpMover.ioFailure(e, phase);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MoverException(MoverException.Code.CANCELED, phase, "interrupted");
        }
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public void close() {
        if (put.isDone() && !open) {
            return;
        }
        open = false;
        abandoned = true;
        put.cancel(true);
        try {
            HttpWire.Response r = put.isCancelled() ? null : put.get(1, TimeUnit.SECONDS);
            if (r != null) {
                r.abort();
            }
        } catch (Exception ignored) {
            // the request failed or was stopped: its connection is closed with it
        }
    }
}
