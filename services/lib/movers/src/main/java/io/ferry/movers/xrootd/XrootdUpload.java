package io.ferry.movers.xrootd;

import io.ferry.movers.MoverException;
import io.ferry.movers.StorageAccess;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayDeque;
import java.util.Deque;

import static io.ferry.movers.xrootd.XrootdProtocol.*;

/**
 * A file being written with kXR_write requests, up to {@value #WINDOW} of them unanswered at a time (the data flows
 * while the server confirms earlier writes). {@link #commit()} waits for every answer, then kXR_sync and kXR_close;
 * closing an upload that was not committed closes the file and removes it ({@code abandon}).
 */
final class XrootdUpload implements StorageAccess.Upload {

    static final int WINDOW = 16;
    static final int MAX_WRITE = 8 << 20;

    /** Removes the partial file once the upload is abandoned (on another session when this one broke). */
    interface Abandon {
        void run() throws MoverException;
    }

    private final XrootdPool pool;
    private final XrootdConnection connection;
    private final byte[] handle;
    private final long size;
    private final URI url;
    private final String phase;
    private final Abandon abandon;
    private final Deque<Integer> unanswered = new ArrayDeque<>();
    private byte[] scratch = new byte[0];
    private long written;
    private boolean open = true;
    private boolean committed;
    private XrootdError failure;

    XrootdUpload(XrootdPool pool, XrootdConnection connection, byte[] handle, long size, URI url, String phase, Abandon abandon) {
        this.pool = pool;
        this.connection = connection;
        this.handle = handle;
        this.size = size;
        this.url = url;
        this.phase = phase;
        this.abandon = abandon;
    }

    /** Sends the bytes; a failure is an IOException whose cause is the {@link MoverException} with Ferry's code. */
    @Override
    public int write(ByteBuffer src) throws IOException {
        if (!open || committed) {
            throw new ClosedChannelException();
        }
        try {
            return send(src);
        } catch (IOException e) {
            if (e.getCause() instanceof MoverException) {
                throw e;
            }
            MoverException m = XrootdErrors.of(e, "kXR_write", url, phase);
            throw new IOException(m.getMessage(), m);
        }
    }

    private int send(ByteBuffer src) throws IOException {
        int total = src.remaining();
        while (src.hasRemaining()) {
            int n = Math.min(src.remaining(), MAX_WRITE);
            byte[] data;
            int off;
            if (src.hasArray()) {
                data = src.array();
                off = src.arrayOffset() + src.position();
                src.position(src.position() + n);
            } else {
                if (scratch.length < n) {
                    scratch = new byte[Math.max(n, 1 << 20)];
                }
                src.get(scratch, 0, n);
                data = scratch;
                off = 0;
            }
            ByteBuffer body = ByteBuffer.allocate(16).put(handle).putLong(written);
            unanswered.addLast(connection.send(WRITE, body.array(), data, off, n, true));
            written += n;
            while (unanswered.size() > WINDOW) {
                answerOne();
            }
            if (failure != null) {
                MoverException m = XrootdErrors.of(failure, "kXR_write", url, XrootdErrors.Role.DESTINATION, phase);
                throw new IOException(m.getMessage(), m);
            }
        }
        return total;
    }

    private void answerOne() throws IOException {
        int id = unanswered.pollFirst();
        try {
            XrootdResponse r = connection.await(id);
            if (r.status() != OK && failure == null) {
                // a pipelined write cannot be repeated in order: kXR_wait or a redirect here fails the upload
                failure = new XrootdError(SERVER_ERROR, "kXR_write answered with status " + r.status() + " instead of kXR_ok");
            }
        } catch (XrootdError e) {
            if (failure == null) {
                failure = e;
            }
        }
    }

    @Override
    public void commit() throws MoverException {
        if (committed) {
            return;
        }
        if (!open) {
            throw new MoverException(MoverException.Code.HTTP_ERROR, phase, "upload of " + url + " was closed before commit");
        }
        try {
            while (!unanswered.isEmpty()) {
                answerOne();
            }
            if (failure != null) {
                throw XrootdErrors.of(failure, "kXR_write", url, XrootdErrors.Role.DESTINATION, phase);
            }
            if (size >= 0 && written != size) {
                throw new MoverException(MoverException.Code.SIZE_MISMATCH, phase, url + ": " + written + " bytes written, " + size + " expected");
            }
            byte[] body = ByteBuffer.allocate(16).put(handle).array();
            connection.call(SYNC, body, new byte[0]);
            connection.call(CLOSE, body, new byte[0]);
            committed = true;
            open = false;
            pool.give(connection);
        } catch (XrootdError e) {
            throw XrootdErrors.of(e, "kXR_sync/kXR_close", url, XrootdErrors.Role.DESTINATION, phase);
        } catch (IOException e) {
            connection.close();
            throw XrootdErrors.of(e, "kXR_write", url, phase);
        }
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    /** Abandons an upload that was not committed: the file is closed and removed. */
    @Override
    public void close() throws IOException {
        if (!open) {
            return;
        }
        open = false;
        try {
            while (!unanswered.isEmpty()) {
                answerOne();
            }
            connection.call(CLOSE, ByteBuffer.allocate(16).put(handle).array(), new byte[0]);
            pool.give(connection);
        } catch (IOException | XrootdError e) {
            connection.close();
        }
        try {
            abandon.run();
        } catch (MoverException e) {
            throw new IOException("abandoned upload of " + url + " could not be removed: " + e.getMessage(), e);
        }
    }
}
