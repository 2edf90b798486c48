package io.ferry.movers;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.Random;

/** Whole objects in and out of an S3 store through {@link S3Access}, for the tests against real servers. */
final class S3Objects {

    private S3Objects() {
    }

    static byte[] random(int size, long seed) {
        byte[] data = new byte[size];
        new Random(seed).nextBytes(data);
        return data;
    }

    /** Uploads {@code data} in writes of {@code chunk} bytes, announcing {@code announced} (-1: unknown). */
    static void write(S3Access access, URI url, StorageCredential credential, byte[] data, long announced, int chunk) throws Exception {
        try (StorageAccess.Upload up = access.write(url, announced, credential, "transfer")) {
            for (int at = 0; at < data.length; at += chunk) {
                up.write(ByteBuffer.wrap(data, at, Math.min(chunk, data.length - at)));
            }
            up.commit();
        }
    }

    static byte[] read(S3Access access, URI url, StorageCredential credential) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ReadableByteChannel in = access.read(url, credential, "transfer")) {
            ByteBuffer buf = ByteBuffer.allocateDirect(64 << 10);
            while (in.read(buf) >= 0) {
                buf.flip();
                byte[] b = new byte[buf.remaining()];
                buf.get(b);
                out.write(b);
                buf.clear();
            }
        }
        return out.toByteArray();
    }
}
