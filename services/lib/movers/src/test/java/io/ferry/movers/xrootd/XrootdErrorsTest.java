package io.ferry.movers.xrootd;

import io.ferry.movers.MoverException;
import org.junit.jupiter.api.Test;

import java.net.URI;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** XRootD's error numbers in Ferry's codes, the server's text kept. */
class XrootdErrorsTest {

    static final URI URL = URI.create("root://se.example:1094//data/f");

    @Test
    void codesFollowWhatTheServerSays() {
        assertEquals(MoverException.Code.SOURCE_NOT_FOUND, code(XrootdProtocol.NOT_FOUND, XrootdErrors.Role.SOURCE));
        assertEquals(MoverException.Code.HTTP_ERROR, code(XrootdProtocol.NOT_FOUND, XrootdErrors.Role.DESTINATION));
        assertEquals(MoverException.Code.PERMISSION_DENIED, code(XrootdProtocol.NOT_AUTHORIZED, XrootdErrors.Role.SOURCE));
        assertEquals(MoverException.Code.PERMISSION_DENIED, code(XrootdProtocol.AUTH_FAILED, XrootdErrors.Role.SOURCE));
        assertEquals(MoverException.Code.DEST_EXISTS, code(XrootdProtocol.ITEM_EXISTS, XrootdErrors.Role.DESTINATION));
        for (int retryable : new int[] {XrootdProtocol.SERVER_ERROR, XrootdProtocol.IO_ERROR, XrootdProtocol.OVER_QUOTA, XrootdProtocol.NO_SPACE}) {
            MoverException e = XrootdErrors.of(new XrootdError(retryable, "disk on fire"), "kXR_write", URL, XrootdErrors.Role.DESTINATION, "transfer");
            assertEquals(MoverException.Code.HTTP_5XX, e.code());
            assertTrue(e.retryable());
            assertTrue(e.getMessage().contains("disk on fire"), e.getMessage());
        }
    }

    @Test
    void aPullersFailureIsJudgedByTheSourcesErrorNumber() {
        XrootdError fromDestination = new XrootdError(XrootdProtocol.FS_ERROR,
                "[ERROR] Server responded with an error: [3010] Unable to open /data/t1; permission denied");
        MoverException e = XrootdErrors.of(XrootdErrors.pullerError(fromDestination), "third-party copy to", URL, XrootdErrors.Role.SOURCE, "transfer");
        assertEquals(MoverException.Code.PERMISSION_DENIED, e.code());
        assertTrue(e.getMessage().contains("Unable to open /data/t1"), e.getMessage());
        XrootdError plain = new XrootdError(XrootdProtocol.FS_ERROR, "no space left");
        assertEquals(MoverException.Code.HTTP_5XX, XrootdErrors.of(XrootdErrors.pullerError(plain), "x", URL, XrootdErrors.Role.SOURCE, "transfer").code());
    }

    private static MoverException.Code code(int xrootd, XrootdErrors.Role role) {
        return XrootdErrors.of(new XrootdError(xrootd, "text"), "kXR_open", URL, role, "transfer").code();
    }
}
