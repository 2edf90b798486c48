package io.ferry.storageurl;

/** A URL that has no canonical storage form; {@link #reason()} says which rule it broke, for a stable error code. */
public final class InvalidStorageUrl extends IllegalArgumentException {

    /** Which rule a URL broke. */
    public enum Reason {
        MALFORMED, NO_SCHEME, TOO_LONG, USER_INFO, QUERY, FRAGMENT, BAD_ESCAPE, DOT_SEGMENT, ENCODED_SEPARATOR,
        FORBIDDEN_CHARACTER
    }

    private final Reason reason;

    public InvalidStorageUrl(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
