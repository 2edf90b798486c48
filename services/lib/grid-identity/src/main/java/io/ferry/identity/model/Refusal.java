package io.ferry.identity.model;

/**
 * Why a credential was not accepted: a stable machine-readable {@code code} (the problem document's {@code code})
 * and a {@code detail} for people. Never carries the credential itself.
 */
public record Refusal(Code code, String detail) {

    /** Reasons a caller can act on; each is a 401. */
    public enum Code {
        TOKEN_MALFORMED,
        TOKEN_UNSIGNED,
        TOKEN_ALGORITHM_NOT_ALLOWED,
        TOKEN_UNKNOWN_ISSUER,
        TOKEN_UNKNOWN_KEY,
        TOKEN_ISSUER_KEYS_UNAVAILABLE,
        TOKEN_BAD_SIGNATURE,
        TOKEN_EXPIRED,
        TOKEN_NOT_YET_VALID,
        TOKEN_WRONG_AUDIENCE,
        CERTIFICATE_EXPIRED,
        CERTIFICATE_NOT_YET_VALID,
        CERTIFICATE_UNTRUSTED,
        CERTIFICATE_REVOKED,
        CERTIFICATE_INVALID,
        VOMS_INVALID,
        VO_NOT_ACCEPTED
    }

    public static Refusal of(Code code, String detail) {
        return new Refusal(code, detail);
    }

    /** The refusal as an exception, for verifiers that stop at the first failed check. */
    public RefusedException exception() {
        return new RefusedException(this);
    }

    /** A credential was refused; {@link #refusal()} says why. */
    public static final class RefusedException extends RuntimeException {
        private final transient Refusal refusal;

        RefusedException(Refusal refusal) {
            super(refusal.code() + ": " + refusal.detail(), null, false, false);
            this.refusal = refusal;
        }

        public Refusal refusal() {
            return refusal;
        }
    }
}
