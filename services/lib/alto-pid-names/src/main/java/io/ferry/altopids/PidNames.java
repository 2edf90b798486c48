package io.ferry.altopids;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;

/**
 * How an SE becomes an ALTO PID (RFC 7285 §10.1: at most 64 of {@code A-Za-z0-9 - : @ _ .}, the '.' reserved).
 * SE names are {@code [A-Za-z0-9][A-Za-z0-9_.:-]{0,99}}: every character but '.' is a PID character, and '@' is the
 * one PID character SE names never hold. So '.' becomes '@', which keeps the mapping one-to-one and the SE readable.
 * Names of 64 characters or more keep their first 47 and get '@' and 16 hex digits of the SHA-256 of the SE name:
 * 64 characters, never the length of a directly mapped name (at most 63), so the two kinds cannot collide.
 */
public final class PidNames {

    static final int MAX_PID = 64;
    static final int HASH_HEX = 16;

    private PidNames() {
    }

    /** The PID of an SE. */
    public static String pid(String se) {
        String mapped = se.replace('.', '@');
        if (mapped.length() < MAX_PID) {
            return mapped;
        }
        return mapped.substring(0, MAX_PID - HASH_HEX - 1) + "@" + HexFormat.of().formatHex(sha256(se)).substring(0, HASH_HEX);
    }

    /**
     * The SE a PID names, when the PID was mapped directly (fewer than 64 characters); empty for a cut-and-hashed PID,
     * whose SE only a list of SE names can tell (compare {@link #pid} of each).
     */
    public static Optional<String> se(String pid) {
        return pid.length() < MAX_PID ? Optional.of(pid.replace('@', '.')) : Optional.empty();
    }

    /** Whether {@code s} is a PID name by RFC 7285's syntax ('.' included: it is reserved, not forbidden to parse). */
    public static boolean isPidName(String s) {
        if (s.isEmpty() || s.length() > MAX_PID) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
            if (!alnum && c != '-' && c != ':' && c != '@' && c != '_' && c != '.') {
                return false;
            }
        }
        return true;
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
