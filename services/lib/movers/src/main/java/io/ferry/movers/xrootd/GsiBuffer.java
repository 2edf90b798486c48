package io.ferry.movers.xrootd;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * XRootD's XrdSutBuffer as gsi exchanges it: the protocol name (NUL-terminated), a step number, then typed buckets
 * (type, length, bytes), ended by a zero type. Buckets keep their order; a deactivated one is left out when the
 * buffer is serialized, as XrdSutBuffer does.
 */
final class GsiBuffer {

    static final int MAIN = 3001;
    static final int PUBLIC_KEY = 3004;
    static final int CIPHER = 3005;
    static final int RANDOM_TAG = 3006;
    static final int SIGNED_RANDOM_TAG = 3007;
    static final int MESSAGE = 3011;
    static final int CRYPTO_MODULE = 3000;
    static final int VERSION = 3014;
    static final int CLIENT_OPTIONS = 3019;
    static final int X509 = 3022;
    static final int ISSUER_HASH = 3023;
    static final int CIPHER_ALGORITHMS = 3025;
    static final int DIGEST_ALGORITHMS = 3026;

    private static final class Bucket {
        int type;
        byte[] data;

        Bucket(int type, byte[] data) {
            this.type = type;
            this.data = data;
        }
    }

    final String protocol;
    int step;
    private final List<Bucket> buckets = new ArrayList<>();

    GsiBuffer(String protocol, int step) {
        this.protocol = protocol;
        this.step = step;
    }

    static GsiBuffer parse(byte[] b) throws IOException {
        int nul = 0;
        while (nul < b.length && b[nul] != 0) {
            nul++;
        }
        if (nul == 0 || nul + 5 > b.length) {
            throw new IOException("malformed gsi buffer");
        }
        ByteBuffer in = ByteBuffer.wrap(b, nul + 1, b.length - nul - 1);
        GsiBuffer out = new GsiBuffer(new String(b, 0, nul, StandardCharsets.US_ASCII), in.getInt());
        while (in.remaining() >= 4) {
            int type = in.getInt();
            if (type == 0) {
                break;
            }
            int len = in.getInt();
            if (len < 0 || len > in.remaining()) {
                throw new IOException("malformed gsi bucket " + type);
            }
            byte[] data = new byte[len];
            in.get(data);
            out.buckets.add(new Bucket(type, data));
        }
        return out;
    }

    byte[] serialize() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(protocol.getBytes(StandardCharsets.US_ASCII));
        out.write(0);
        out.writeBytes(ByteBuffer.allocate(4).putInt(step).array());
        for (Bucket b : buckets) {
            if (b.type != 1) {
                out.writeBytes(ByteBuffer.allocate(8).putInt(b.type).putInt(b.data.length).array());
                out.writeBytes(b.data);
            }
        }
        out.writeBytes(new byte[4]);
        return out.toByteArray();
    }

    /** The first active bucket of {@code type}, or null. */
    byte[] get(int type) {
        for (Bucket b : buckets) {
            if (b.type == type) {
                return b.data;
            }
        }
        return null;
    }

    String text(int type) {
        byte[] d = get(type);
        if (d == null) {
            return null;
        }
        int end = 0;
        while (end < d.length && d[end] != 0) {
            end++;
        }
        return new String(d, 0, end, StandardCharsets.UTF_8);
    }

    void add(int type, byte[] data) {
        buckets.add(new Bucket(type, data));
    }

    void add(int type, int value) {
        add(type, ByteBuffer.allocate(4).putInt(value).array());
    }

    /** Replaces the bucket's content, or adds one. */
    void update(int type, byte[] data) {
        for (Bucket b : buckets) {
            if (b.type == type) {
                b.data = data;
                return;
            }
        }
        add(type, data);
    }

    /** The bucket's new type and content (a random tag becomes a signed one). */
    void retype(int from, int to, byte[] data) {
        for (Bucket b : buckets) {
            if (b.type == from) {
                b.type = to;
                b.data = data;
                return;
            }
        }
    }

    void deactivate(int type) {
        for (Bucket b : buckets) {
            if (b.type == type) {
                b.type = 1;
            }
        }
    }
}
