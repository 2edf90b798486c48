package io.ferry.scheduler.submission;

import com.fasterxml.jackson.databind.JsonNode;
import io.ferry.movers.ChecksumAlgorithm;
import io.ferry.problem.Problem;

import java.util.List;
import java.util.Locale;

/**
 * A file's {@code checksum} as FTS3 takes it: one algorithm, {@code ALGORITHM:value} or the algorithm alone (FTS3's
 * url-copy splits at the first colon; the value then is only compared, never required). Ferry verifies ADLER32 and
 * MD5, the two Rucio picks from per RSE. Stored in one spelling: the algorithm upper-case, the value lower-case,
 * ADLER32 padded to 8 digits as FTS3 pads it; ADLER32 alone is stored as no checksum (the copies' default), MD5
 * alone as {@code MD5}, so the copy computes and compares MD5 without an expected value.
 */
public final class FileChecksum {

    static final String ACCEPTED = "expected ADLER32:<1 to 8 hex digits> or MD5:<32 hex digits>, or the algorithm alone";

    private FileChecksum() {
    }

    /** The stored form of {@code given} (null: none to store), or a field error at {@code field}. */
    static String parse(JsonNode given, String field, List<Problem.FieldError> errors) {
        if (!given.isTextual()) {
            errors.add(new Problem.FieldError(field, ACCEPTED));
            return null;
        }
        String[] parts = given.asText().split(":", 2);
        ChecksumAlgorithm algorithm = ChecksumAlgorithm.named(parts[0]);
        if (algorithm == null) {
            errors.add(new Problem.FieldError(field, ACCEPTED));
            return null;
        }
        if (parts.length == 1) {
            return algorithm == ChecksumAlgorithm.ADLER32 ? null : algorithm.name();
        }
        int min = algorithm == ChecksumAlgorithm.ADLER32 ? 1 : algorithm.hexDigits();
        if (!ChecksumAlgorithm.isHex(parts[1], min, algorithm.hexDigits())) {
            errors.add(new Problem.FieldError(field, ACCEPTED));
            return null;
        }
        String value = "0".repeat(algorithm.hexDigits() - parts[1].length()) + parts[1].toLowerCase(Locale.ROOT);
        return algorithm.name() + ":" + value;
    }

    /** The algorithm of a stored checksum: ADLER32 when there is none. */
    public static ChecksumAlgorithm algorithm(String stored) {
        if (stored == null) {
            return ChecksumAlgorithm.ADLER32;
        }
        ChecksumAlgorithm named = ChecksumAlgorithm.named(stored.split(":", 2)[0]);
        return named == null ? ChecksumAlgorithm.ADLER32 : named;
    }

    /** The expected value of a stored checksum as the algorithm's hex digits, or null when it names the algorithm alone (or none). */
    public static String value(String stored) {
        if (stored == null || stored.indexOf(':') < 0) {
            return null;
        }
        ChecksumAlgorithm algorithm = algorithm(stored);
        String hex = stored.substring(stored.indexOf(':') + 1).toLowerCase(Locale.ROOT);
        return "0".repeat(Math.max(0, algorithm.hexDigits() - hex.length())) + hex;
    }
}
