package io.ferry.resolver.nativeprotocol.wire;

/** The 24-byte header of every message: operation, response code (0 in requests), flags, and the body's length. */
public record MessageHeader(int opCode, int responseCode, int opFlags, int siteInfoSerial, int recursionCount,
                            int expiration, int bodyLength) {

    public static final int SIZE = 24;

    public static final int OC_RESOLUTION = 1;
    public static final int OC_GET_SITE_INFO = 2;
    public static final int OC_CREATE_HANDLE = 100;
    public static final int OC_DELETE_HANDLE = 101;
    public static final int OC_ADD_VALUE = 102;
    public static final int OC_REMOVE_VALUE = 103;
    public static final int OC_MODIFY_VALUE = 104;
    public static final int OC_RESPONSE_TO_CHALLENGE = 200;
    public static final int OC_SESSION_SETUP = 400;
    public static final int OC_SESSION_TERMINATE = 401;

    public static final int FLAG_AUTHORITATIVE = 0x80000000;
    public static final int FLAG_CERTIFY = 0x40000000;
    public static final int FLAG_ENCRYPT = 0x20000000;
    public static final int FLAG_RECURSIVE = 0x10000000;
    public static final int FLAG_CACHE_CERTIFY = 0x08000000;
    public static final int FLAG_CONTINUOUS = 0x04000000;
    public static final int FLAG_KEEP_ALIVE = 0x02000000;
    public static final int FLAG_PUBLIC_ONLY = 0x01000000;
    public static final int FLAG_REQUEST_DIGEST = 0x00800000;
    public static final int FLAG_OVERWRITE = 0x00400000;
    public static final int FLAG_MINT = 0x00200000;
    public static final int FLAG_DO_NOT_REFER = 0x00100000;

    public static MessageHeader decode(WireReader in) {
        MessageHeader h = new MessageHeader(in.int4(), in.int4(), in.int4(), in.int2(), in.int1() & 0xff, skipReserved(in), in.int4());
        if (h.bodyLength < 0) {
            throw new ProtocolException("negative body length");
        }
        return h;
    }

    private static int skipReserved(WireReader in) {
        in.int1();
        return in.int4();
    }

    public void encode(WireWriter out) {
        out.int4(opCode).int4(responseCode).int4(opFlags).int2(siteInfoSerial).int1(recursionCount).int1(0).int4(expiration).int4(bodyLength);
    }

    public boolean has(int flag) {
        return (opFlags & flag) != 0;
    }
}
