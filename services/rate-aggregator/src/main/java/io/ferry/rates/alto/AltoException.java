package io.ferry.rates.alto;

import io.ferry.rates.alto.api.AltoError;

/** A request the ALTO face refuses, answered as {@code application/alto-error+json} with {@link #status}. */
public class AltoException extends RuntimeException {

    private final int status;
    private final AltoError.Meta error;

    AltoException(int status, AltoError.Meta error) {
        super(error.code() + (error.field() == null ? "" : " " + error.field()), null, false, false);
        this.status = status;
        this.error = error;
    }

    public static AltoException syntax(String reason) {
        return new AltoException(400, new AltoError.Meta(AltoError.E_SYNTAX, null, null, reason));
    }

    public static AltoException missing(String field) {
        return new AltoException(400, new AltoError.Meta(AltoError.E_MISSING_FIELD, field, null, null));
    }

    public static AltoException wrongType(String field) {
        return new AltoException(400, new AltoError.Meta(AltoError.E_INVALID_FIELD_TYPE, field, null, null));
    }

    public static AltoException invalid(String field, String value) {
        return new AltoException(400, new AltoError.Meta(AltoError.E_INVALID_FIELD_VALUE, field, value, null));
    }

    /** ALTO has no code for a refused size; the body says E_SYNTAX (the request was not parsed) and why. */
    public static AltoException tooLarge(long bytes, long limit) {
        return new AltoException(413, new AltoError.Meta(AltoError.E_SYNTAX, null, null,
                "request body of " + bytes + " bytes exceeds the limit of " + limit + " bytes"));
    }

    public int status() {
        return status;
    }

    public AltoError body() {
        return new AltoError(error);
    }
}
