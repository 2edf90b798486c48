package io.ferry.movers;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ReadableByteChannel;

/**
 * A GET's body as a channel (S3 objects, WebDAV files). Closing it before its end drops the connection rather than
 * reading the rest, which also fails a read blocked on it in another thread (a stopped copy).
 */
final class ResponseBodyChannel implements ReadableByteChannel {
    private final HttpWire.Response get;
    private volatile boolean open = true;

    ResponseBodyChannel(HttpWire.Response get) {
        this.get = get;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        if (!open) {
            throw new ClosedChannelException();
        }
        return dst.hasRemaining() ? get.read(dst) : 0;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public void close() throws IOException {
        if (open) {
            open = false;
            get.close();
        }
    }
}
