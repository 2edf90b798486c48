package io.ferry.movers.xrootd;

import java.nio.charset.StandardCharsets;

/** A final answer to one request: kXR_ok with its body, or a kXR_redirect / kXR_authmore the caller acts on. */
record XrootdResponse(int status, byte[] body) {

    /** The body as text, up to its first NUL (stat and query answers are C strings). */
    String text() {
        int end = 0;
        while (end < body.length && body[end] != 0) {
            end++;
        }
        return new String(body, 0, end, StandardCharsets.UTF_8);
    }
}
