package io.ferry.movers.xrootd;

import io.ferry.movers.MoverException;
import io.ferry.movers.MoverException.Code;

import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;

import static io.ferry.movers.xrootd.XrootdProtocol.*;

/**
 * XRootD's answers in Ferry's codes, with the server's own text kept: missing source, permission, existing
 * destination are final; server-side failures (kXR_ServerError, kXR_IOError, kXR_overQuota, ...) are retryable and
 * reported as {@link Code#HTTP_5XX}, Ferry's retryable "the storage failed" code; timeouts and dropped connections as
 * {@link Code#TIMEOUT} and {@link Code#CONNECTION_RESET}.
 */
final class XrootdErrors {

    /** An XRootD error number inside a message ("[3010] ..."), as xrdcp reports the source's failure. */
    private static final java.util.regex.Pattern INNER_CODE = java.util.regex.Pattern.compile("\\[(30[0-9][0-9])]");

    /** Whether a missing file is the copy's source (SOURCE_NOT_FOUND) or something else that must be there. */
    enum Role { SOURCE, DESTINATION }

    private XrootdErrors() {
    }

    static MoverException of(XrootdError e, String request, URI url, Role role, String phase) {
        String text = request + " " + url + ": " + e.getMessage() + " (" + name(e.code) + ")";
        return switch (e.code) {
            case NOT_FOUND -> new MoverException(role == Role.SOURCE ? Code.SOURCE_NOT_FOUND : Code.HTTP_ERROR, phase, text);
            case NOT_AUTHORIZED, AUTH_FAILED, TLS_REQUIRED, FS_READ_ONLY -> new MoverException(Code.PERMISSION_DENIED, phase, text);
            case ITEM_EXISTS -> {
                MoverException exists = MoverException.destinationExists(phase, url);
                yield new MoverException(exists.code(), phase, exists.getMessage() + ": " + e.getMessage());
            }
            case CHECKSUM_ERROR -> new MoverException(Code.CHECKSUM_MISMATCH, phase, text);
            case REQUEST_TIMED_OUT, TIMER_EXPIRED -> new MoverException(Code.TIMEOUT, phase, text);
            case SERVER_ERROR, IO_ERROR, FS_ERROR, NO_MEMORY, NO_SPACE, OVER_QUOTA, NO_SERVER, OVERLOADED, IN_PROGRESS,
                 NO_REPLICAS, FILE_NOT_OPEN -> new MoverException(Code.HTTP_5XX, phase, text);
            default -> new MoverException(Code.HTTP_ERROR, phase, text);
        };
    }

    /**
     * A third-party copy's failure as the puller saw it: the destination answers kXR_FSError with xrdcp's message,
     * which carries the source's own error number ("[3010] Unable to open ...; permission denied"); that number
     * says what went wrong.
     */
    static XrootdError pullerError(XrootdError e) {
        if (e.code != FS_ERROR || e.getMessage() == null) {
            return e;
        }
        java.util.regex.Matcher m = INNER_CODE.matcher(e.getMessage());
        int inner = -1;
        while (m.find()) {
            inner = Integer.parseInt(m.group(1));  // the last one is the source's
        }
        return inner > 0 ? new XrootdError(inner, e.getMessage()) : e;
    }

    static MoverException of(IOException e, String request, URI url, String phase) {
        String text = request + " " + url + ": " + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
        if (e instanceof SocketTimeoutException || e instanceof InterruptedIOException) {
            return new MoverException(Code.TIMEOUT, phase, text);
        }
        if (e instanceof javax.net.ssl.SSLHandshakeException) {
            return new MoverException(Code.TLS_FAILED, phase, text);
        }
        if (e instanceof UnknownHostException) {
            return new MoverException(Code.HTTP_ERROR, phase, text);
        }
        return new MoverException(Code.CONNECTION_RESET, phase, text);
    }

    /** A dropped connection (not a timeout): a pooled session the server has closed meanwhile fails like this. */
    static boolean isDisconnect(IOException e) {
        return e instanceof EOFException || e instanceof SocketException && !(e instanceof ConnectException);
    }

    static String name(int code) {
        return switch (code) {
            case ARG_INVALID -> "kXR_ArgInvalid";
            case FILE_NOT_OPEN -> "kXR_FileNotOpen";
            case FS_ERROR -> "kXR_FSError";
            case IO_ERROR -> "kXR_IOError";
            case NO_MEMORY -> "kXR_NoMemory";
            case NO_SPACE -> "kXR_NoSpace";
            case NOT_AUTHORIZED -> "kXR_NotAuthorized";
            case NOT_FOUND -> "kXR_NotFound";
            case SERVER_ERROR -> "kXR_ServerError";
            case UNSUPPORTED -> "kXR_Unsupported";
            case NO_SERVER -> "kXR_noserver";
            case IS_DIRECTORY -> "kXR_isDirectory";
            case ITEM_EXISTS -> "kXR_ItExists";
            case CHECKSUM_ERROR -> "kXR_ChkSumErr";
            case IN_PROGRESS -> "kXR_inProgress";
            case OVER_QUOTA -> "kXR_overQuota";
            case OVERLOADED -> "kXR_Overloaded";
            case FS_READ_ONLY -> "kXR_fsReadOnly";
            case TLS_REQUIRED -> "kXR_TLSRequired";
            case NO_REPLICAS -> "kXR_noReplicas";
            case AUTH_FAILED -> "kXR_AuthFailed";
            case REQUEST_TIMED_OUT -> "kXR_ReqTimedOut";
            case TIMER_EXPIRED -> "kXR_TimerExpired";
            default -> "kXR error " + code;
        };
    }
}
