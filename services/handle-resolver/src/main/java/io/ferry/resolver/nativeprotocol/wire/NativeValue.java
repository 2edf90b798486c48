package io.ferry.resolver.nativeprotocol.wire;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A handle value as the protocol carries it: index, timestamp (epoch seconds), TTL (0: relative seconds, 1: an
 * absolute expiry in epoch seconds), the four permission bits, type and data bytes, and references.
 */
public record NativeValue(int index, int timestamp, int ttlType, int ttl, int permissions, byte[] type, byte[] data,
                          List<Reference> references) {

    public static final int ADMIN_READ = 0x8;
    public static final int ADMIN_WRITE = 0x4;
    public static final int PUBLIC_READ = 0x2;
    public static final int PUBLIC_WRITE = 0x1;

    public record Reference(byte[] handle, int index) {
    }

    public String typeName() {
        return new String(type, StandardCharsets.UTF_8);
    }

    public static NativeValue decode(WireReader in) {
        int index = in.int4();
        int timestamp = in.int4();
        int ttlType = in.int1() & 0xff;
        int ttl = in.int4();
        int permissions = in.int1() & 0x0f;
        byte[] type = in.bytes();
        byte[] data = in.bytes();
        int n = in.count(8);
        List<Reference> refs = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            refs.add(new Reference(in.bytes(), in.int4()));
        }
        return new NativeValue(index, timestamp, ttlType, ttl, permissions, type, data, refs);
    }

    public void encode(WireWriter out) {
        out.int4(index).int4(timestamp).int1(ttlType).int4(ttl).int1(permissions).bytes(type).bytes(data).int4(references.size());
        for (Reference r : references) {
            out.bytes(r.handle()).int4(r.index());
        }
    }

    /** A count, then that many values (the body of create, add and modify requests after the handle). */
    public static List<NativeValue> decodeList(WireReader in) {
        int n = in.count(26);
        List<NativeValue> values = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            values.add(decode(in));
        }
        return values;
    }
}
