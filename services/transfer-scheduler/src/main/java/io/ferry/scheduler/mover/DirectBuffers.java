package io.ferry.scheduler.mover;

import java.nio.ByteBuffer;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * A pool of direct buffers for the copy path: a direct buffer costs a native allocation, zeroing and a cleaner, too
 * much to pay per file when a job moves hundreds of small files a second; the pool keeps a bounded number for reuse.
 */
final class DirectBuffers {

    static final int SIZE = 256 << 10;
    private static final BlockingQueue<ByteBuffer> FREE = new ArrayBlockingQueue<>(64);

    private DirectBuffers() {
    }

    static ByteBuffer take() {
        ByteBuffer b = FREE.poll();
        return b == null ? ByteBuffer.allocateDirect(SIZE) : b.clear();
    }

    static void give(ByteBuffer b) {
        if (b != null && b.isDirect() && b.capacity() == SIZE) {
            FREE.offer(b);
        }
    }
}
