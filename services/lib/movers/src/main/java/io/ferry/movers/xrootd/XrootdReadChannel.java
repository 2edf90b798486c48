package io.ferry.movers.xrootd;

import io.ferry.movers.MoverException;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ReadableByteChannel;
import java.util.ArrayDeque;
import java.util.Deque;

import static io.ferry.movers.xrootd.XrootdProtocol.*;

/**
 * An open file's bytes from its start: {@value #DEPTH} kXR_read requests of up to {@value #CHUNK} bytes kept in flight
 * on the session, each answer landing in its own buffer (the server may split it into kXR_oksofar parts), so the
 * server reads ahead while the caller consumes. Closing sends kXR_close and gives the session back to the pool once
 * every answer has arrived. A failed read throws an IOException whose cause is the {@link MoverException} with
 * Ferry's code (SOURCE_NOT_FOUND, CONNECTION_RESET, TIMEOUT, ...).
 */
final class XrootdReadChannel implements ReadableByteChannel {

    static final int CHUNK = 8 << 20;
    static final int DEPTH = 4;

    /** One kXR_read in flight and the bytes its answer brought so far. */
    private static final class Pending {
        final int streamId;
        final byte[] data;
        int filled;
        int consumed;
        boolean done;

        Pending(int streamId, byte[] data) {
            this.streamId = streamId;
            this.data = data;
        }
    }

    private final XrootdPool pool;
    private final XrootdConnection connection;
    private final byte[] handle;
    private final long size;
    private final URI url;
    private final String phase;
    private final Deque<Pending> inFlight = new ArrayDeque<>();
    private final Deque<byte[]> spare = new ArrayDeque<>();
    private long requested;
    private boolean eof;
    private boolean open = true;

    XrootdReadChannel(XrootdPool pool, XrootdConnection connection, byte[] handle, long size, URI url, String phase) {
        this.pool = pool;
        this.connection = connection;
        this.handle = handle;
        this.size = size;
        this.url = url;
        this.phase = phase;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        if (!open) {
            throw new ClosedChannelException();
        }
        try {
            while (true) {
                refill();
                Pending head = inFlight.peekFirst();
                if (head == null) {
                    return -1;
                }
                while (!head.done && head.filled == head.consumed) {
                    receive();
                }
                int n = Math.min(dst.remaining(), head.filled - head.consumed);
                if (n > 0) {
                    dst.put(head.data, head.consumed, n);
                    head.consumed += n;
                    return n;
                }
                if (dst.remaining() == 0) {
                    return 0;
                }
                inFlight.pollFirst();
                if (head.filled < head.data.length) {
                    eof = true;  // a short answer: the file ends here
                }
                spare.push(head.data);
            }
        } catch (XrootdError e) {
            MoverException m = XrootdErrors.of(e, "kXR_read", url, XrootdErrors.Role.SOURCE, phase);
            throw new IOException(m.getMessage(), m);
        } catch (IOException e) {
            connection.markBroken();
            MoverException m = XrootdErrors.of(e, "kXR_read", url, phase);
            throw new IOException(m.getMessage(), m);
        }
    }

    /** Keeps {@value #DEPTH} reads in flight until the end of the file. */
    private void refill() throws IOException {
        boolean sent = false;
        while (!eof && inFlight.size() < DEPTH && (size < 0 || requested < size)) {
            int len = (int) (size < 0 ? CHUNK : Math.min(CHUNK, size - requested));
            if (len == 0) {
                break;
            }
            byte[] buffer = spare.isEmpty() || spare.peek().length != len ? new byte[len] : spare.pop();
            ByteBuffer body = ByteBuffer.allocate(16).put(handle).putLong(requested).putInt(len);
            int id = connection.send(READ, body.array(), new byte[0], 0, 0, false);
            inFlight.addLast(new Pending(id, buffer));
            requested += len;
            sent = true;
        }
        if (sent) {
            connection.flush();
        }
        if (size >= 0 && requested >= size && inFlight.isEmpty()) {
            eof = true;
        }
    }

    /** Reads one answer (or part of one) into the buffer of the read it belongs to. */
    private void receive() throws IOException, XrootdError {
        XrootdConnection.Header h = connection.nextHeader();
        Pending p = null;
        for (Pending q : inFlight) {
            if (q.streamId == h.streamId()) {
                p = q;
                break;
            }
        }
        if (p == null) {
            connection.markBroken();
            throw new IOException("answer for unknown stream " + h.streamId() + " while reading " + url);
        }
        switch (h.status()) {
            case OK, OK_SO_FAR -> {
                if (p.filled + h.length() > p.data.length) {
                    connection.markBroken();
                    throw new IOException("the server sent more than was asked while reading " + url);
                }
                connection.readFully(p.data, p.filled, h.length());
                p.filled += h.length();
                if (h.status() == OK) {
                    p.done = true;
                    connection.requests++;
                }
            }
            case WAIT_RESP -> connection.skip(h.length());
            case ERROR -> {
                p.done = true;
                throw XrootdConnection.error(connection.readBody(h.length()));
            }
            default -> {
                connection.markBroken();
                throw new IOException("unexpected answer " + h.status() + " to kXR_read of " + url);
            }
        }
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public void close() {
        if (!open) {
            return;
        }
        open = false;
        try {
            for (Pending p : inFlight) {
                while (!p.done) {
                    try {
                        receive();
                    } catch (XrootdError ignored) {
                        // an answer that failed is an answer: the stream stays in step
                    }
                }
            }
            inFlight.clear();
            connection.call(CLOSE, ByteBuffer.allocate(16).put(handle).array(), new byte[0]);
            pool.give(connection);
        } catch (IOException | XrootdError e) {
            connection.close();
        }
    }
}
