package io.ferry.movers;

/**
 * A failed copy with Ferry's stable error code, the phase it failed in and whether trying again can help
 * (source missing, permission, checksum mismatch, existing destination are final; timeouts, 5xx, resets are not).
 */
public class MoverException extends Exception {

    public enum Code {
        SOURCE_NOT_FOUND(false), DEST_EXISTS(false), PERMISSION_DENIED(false), CHECKSUM_MISMATCH(false), SIZE_MISMATCH(false),
        TIMEOUT(true), CONNECTION_RESET(true), HTTP_5XX(true), HTTP_ERROR(false), UNSUPPORTED_URL(false), TLS_FAILED(false),
        // raised by the scheduler rather than by a mover
        STALLED(true), CANCELED(false), QUEUE_EXPIRED(false), PREPARE_EXPIRED(true), LEASE_EXPIRED(true), STAGING_FAILED(false);

        final boolean retryable;

        Code(boolean retryable) {
            this.retryable = retryable;
        }
    }

    private final Code code;
    private final String phase;

    public MoverException(Code code, String phase, String message) {
        super(message);
        this.code = code;
        this.phase = phase;
    }

    /**
     * A destination the copy may not replace, in FTS3's words ("Destination file exists and overwrite is not enabled"):
     * Rucio looks for them in the reason to accept a destination that is already right.
     */
    public static MoverException destinationExists(String phase, java.net.URI destination) {
        return new MoverException(Code.DEST_EXISTS, phase, "Destination file exists and overwrite is not enabled (" + destination + ")");
    }

    public Code code() {
        return code;
    }

    public String phase() {
        return phase;
    }

    public boolean retryable() {
        return code.retryable;
    }
}
