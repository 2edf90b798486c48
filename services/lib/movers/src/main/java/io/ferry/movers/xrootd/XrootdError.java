package io.ferry.movers.xrootd;

/** A kXR_error answer: the server's error number (kXR_NotFound, ...) and its own text. */
final class XrootdError extends Exception {

    final int code;

    XrootdError(int code, String text) {
        super(text);
        this.code = code;
    }
}
