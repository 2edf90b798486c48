package io.ferry.movers.xrootd;

/**
 * The numbers of the XRootD protocol (XProtocol.hh of xrootd 5) that Ferry's client uses: request codes, response
 * status, error numbers and option bits. All binary fields travel in network byte order.
 */
final class XrootdProtocol {

    static final int DEFAULT_PORT = 1094;
    static final int CLIENT_PROTOCOL_VERSION = 0x00000520;

    // requests
    static final int AUTH = 3000;
    static final int QUERY = 3001;
    static final int CLOSE = 3003;
    static final int PROTOCOL = 3006;
    static final int LOGIN = 3007;
    static final int DIRLIST = 3004;
    static final int MKDIR = 3008;
    static final int OPEN = 3010;
    static final int PING = 3011;
    static final int READ = 3013;
    static final int RM = 3014;
    static final int SYNC = 3016;
    static final int STAT = 3017;
    static final int WRITE = 3019;

    // response status
    static final int OK = 0;
    static final int OK_SO_FAR = 4000;
    static final int ATTN = 4001;
    static final int AUTH_MORE = 4002;
    static final int ERROR = 4003;
    static final int REDIRECT = 4004;
    static final int WAIT = 4005;
    static final int WAIT_RESP = 4006;
    /** kXR_attn action: the deferred answer to a request that got kXR_waitresp. */
    static final int ASYNC_RESPONSE = 5008;

    // errors
    static final int ARG_INVALID = 3000;
    static final int FILE_NOT_OPEN = 3004;
    static final int FS_ERROR = 3005;
    static final int IO_ERROR = 3007;
    static final int NO_MEMORY = 3008;
    static final int NO_SPACE = 3009;
    static final int NOT_AUTHORIZED = 3010;
    static final int NOT_FOUND = 3011;
    static final int SERVER_ERROR = 3012;
    static final int UNSUPPORTED = 3013;
    static final int NO_SERVER = 3014;
    static final int IS_DIRECTORY = 3016;
    static final int ITEM_EXISTS = 3018;
    static final int CHECKSUM_ERROR = 3019;
    static final int IN_PROGRESS = 3020;
    static final int OVER_QUOTA = 3021;
    static final int OVERLOADED = 3024;
    static final int FS_READ_ONLY = 3025;
    static final int TLS_REQUIRED = 3028;
    static final int NO_REPLICAS = 3029;
    static final int AUTH_FAILED = 3030;
    static final int REQUEST_TIMED_OUT = 3034;
    static final int TIMER_EXPIRED = 3035;

    // kXR_protocol request flags and expectations
    static final int SEC_REQS = 0x01;
    static final int ABLE_TLS = 0x02;
    static final int WANT_TLS = 0x04;
    static final int EXPECT_LOGIN = 0x03;
    static final int EXPECT_TPC = 0x04;

    // kXR_protocol response flags
    static final int HAVE_TLS = 0x80000000;
    static final int GOTO_TLS = 0x40000000;
    static final int TLS_LOGIN = 0x04000000;
    static final int TLS_SESSION = 0x08000000;

    // kXR_login
    static final int CAPVER_5_ASYNC = 0x80 | 5;

    // kXR_open options
    static final int OPEN_DELETE = 0x0002;
    static final int OPEN_NEW = 0x0008;
    static final int OPEN_READ = 0x0010;
    static final int OPEN_UPDATE = 0x0020;
    static final int OPEN_MKPATH = 0x0100;
    static final int OPEN_RETSTAT = 0x0400;
    static final int OPEN_SEQIO = 0x4000;

    // modes (kXR_ur ...)
    static final int MODE_644 = 0x100 | 0x080 | 0x020 | 0x004;
    static final int MODE_755 = 0x100 | 0x080 | 0x040 | 0x020 | 0x008 | 0x004 | 0x001;

    static final int MKDIR_PATH = 0x01;
    static final int QUERY_CHECKSUM = 3;
    static final int STAT_IS_DIR = 2;
    /** kXR_stat flag: neither a regular file nor a directory. */
    static final int STAT_OTHER = 4;
    /** kXR_dirlist option: each name followed by its stat line. */
    static final int DIRLIST_DSTAT = 2;

    private XrootdProtocol() {
    }
}
