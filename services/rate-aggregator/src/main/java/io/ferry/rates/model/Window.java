package io.ferry.rates.model;

import io.ferry.problem.ProblemException;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Time spans as monitoring users write them: 30m, 12h, 7d, 2w, 6mo, 1y. */
public final class Window {

    /** At most seven digits: a longer count is beyond any maximum and would overflow on the way. */
    private static final Pattern SPAN = Pattern.compile("(\\d{1,7})(s|m|min|h|d|w|mo|y)");

    private Window() {
    }

    /** {@link #parse(String, String, String)}, refused beyond {@code max} (the reads' bound). */
    public static Duration parse(String field, String text, String fallback, Duration max) {
        Duration d = parse(field, text, fallback);
        if (d.compareTo(max) > 0) {
            throw ProblemException.badRequest(field, "at most " + describe(max));
        }
        return d;
    }

    /** A maximum as people write it: 366d, 12h, 90s. */
    public static String describe(Duration d) {
        long s = d.toSeconds();
        return s % 86400 == 0 ? s / 86400 + "d" : s % 3600 == 0 ? s / 3600 + "h" : s + "s";
    }

    public static Duration parse(String field, String text, String fallback) {
        String t = text == null || text.isBlank() ? fallback : text.trim().toLowerCase();
        Matcher m = SPAN.matcher(t);
        if (!m.matches()) {
            // The value is not echoed: it may hold anything (control characters, markup).
            throw ProblemException.badRequest(field, "not a time span (use e.g. 30m, 12h, 7d, 6mo, 1y)");
        }
        long n = Long.parseLong(m.group(1));
        Duration d = switch (m.group(2)) {
            case "s" -> Duration.ofSeconds(n);
            case "m", "min" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            case "d" -> Duration.ofDays(n);
            case "w" -> Duration.ofDays(7 * n);
            case "mo" -> Duration.ofDays(30 * n);
            default -> Duration.ofDays(365 * n);
        };
        if (d.isZero() || d.compareTo(Duration.ofDays(3660)) > 0) {
            throw ProblemException.badRequest(field, "must be above zero and at most 10 years");
        }
        return d;
    }

    /** The stored rollup bin (5 min, 1 h or 1 d) that divides {@code bin}; a bin must be a multiple of 5 min. */
    public static int storedBinFor(String field, Duration bin) {
        long s = bin.toSeconds();
        if (s % 300 != 0) {
            throw ProblemException.badRequest(field, "bins are multiples of 5 minutes");
        }
        return s % 86400 == 0 ? 86400 : s % 3600 == 0 ? 3600 : 300;
    }

    /** Sizes as written: 11MB, 1.5 GiB, 4096 (bytes). Decimal prefixes are powers of 1000, binary of 1024. */
    public static long parseBytes(String field, String text) {
        Matcher m = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)\\s*([kmgtp]i?b?|b)?", Pattern.CASE_INSENSITIVE).matcher(text == null ? "" : text.trim());
        if (!m.matches()) {
            throw ProblemException.badRequest(field, "not a size: '" + text + "' (use e.g. 11MB, 2GiB or bytes)");
        }
        double v = Double.parseDouble(m.group(1));
        String unit = m.group(2) == null ? "b" : m.group(2).toLowerCase();
        boolean binary = unit.contains("i");
        int power = switch (unit.charAt(0)) {
            case 'k' -> 1;
            case 'm' -> 2;
            case 'g' -> 3;
            case 't' -> 4;
            case 'p' -> 5;
            default -> 0;
        };
        return Math.round(v * Math.pow(binary ? 1024 : 1000, power));
    }
}
