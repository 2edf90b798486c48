package io.ferry.scheduler.submission;

import com.fasterxml.jackson.databind.JsonNode;
import io.ferry.problem.Problem;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A rate cap ({@code max_rate}) as a job or a link gives it: bytes per second as a whole number, or a number with a
 * unit, optionally followed by {@code /s}: {@code B}, decimal {@code KB MB GB TB} (powers of 1000), binary
 * {@code KiB MiB GiB TiB} (powers of 1024), or bits {@code bit kbit Mbit Gbit Tbit} (decimal, / 8). Units ignore
 * case ("mb" is megabytes: bits are always spelled {@code bit}). Bounded to {@link #MIN} … {@link #MAX}: below
 * 100 KB/s a streamed copy would sit on one 256 KiB buffer for seconds at a time, long enough for storage to drop
 * the idle connection.
 */
public final class MaxRate {

    public static final long MIN = 100_000;
    public static final long MAX = 100_000_000_000L;
    /** Java's {@code \s}, spelled out: in JSON Schema (ECMA 262) and in Python, {@code \s} also matches every Unicode space. */
    private static final String SPACE = "[ \\t\\n\\x0B\\f\\r]";
    /** The keys of {@link #UNITS} in any case, letter by letter: a JSON Schema pattern has no flag to ignore case. */
    private static final String UNIT = "[bB](?:[iI][tT])?|[kKmMgGtT](?:[iI]?[bB]|[bB][iI][tT])";
    /**
     * A rate given as text, in a syntax Java, JSON Schema and Python read alike, so that the OpenAPI document states
     * the very pattern that is checked here (the bounds are checked on the value, which a pattern cannot state).
     */
    public static final String PATTERN = "^" + SPACE + "*([0-9]+(?:\\.[0-9]+)?)" + SPACE + "*((?:" + UNIT + ")?)" + SPACE
            + "*(?:/" + SPACE + "*s)?" + SPACE + "*$";
    private static final Pattern FORM = Pattern.compile(PATTERN);
    private static final Map<String, Double> UNITS = Map.ofEntries(
            Map.entry("", 1.0), Map.entry("b", 1.0),
            Map.entry("kb", 1e3), Map.entry("mb", 1e6), Map.entry("gb", 1e9), Map.entry("tb", 1e12),
            Map.entry("kib", 1024.0), Map.entry("mib", 1024.0 * 1024), Map.entry("gib", 1024.0 * 1024 * 1024),
            Map.entry("tib", 1024.0 * 1024 * 1024 * 1024),
            Map.entry("bit", 1 / 8.0), Map.entry("kbit", 1e3 / 8), Map.entry("mbit", 1e6 / 8), Map.entry("gbit", 1e9 / 8),
            Map.entry("tbit", 1e12 / 8));
    private static final String EXPECTED = "bytes per second, " + MIN + " (100KB/s) to " + MAX
            + " (100GB/s): a whole number or a number with a unit such as 50MB/s, 1Gbit/s, 512KiB/s";

    private MaxRate() {
    }

    /** {@code value} in bytes per second; empty when it is not a rate within the bounds. */
    public static OptionalLong parse(String value) {
        if (value == null) {
            return OptionalLong.empty();
        }
        Matcher m = FORM.matcher(value);
        if (!m.matches()) {
            return OptionalLong.empty();
        }
        double bytes = new BigDecimal(m.group(1)).doubleValue() * UNITS.get(m.group(2).toLowerCase(Locale.ROOT));
        if (bytes < MIN || bytes > MAX) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(Math.round(bytes));
    }

    /**
     * A JSON value, a string as {@link #parse} or a whole number of bytes per second; absent or null: no cap (null);
     * else a field error named {@code field}.
     */
    public static Long read(JsonNode v, String field, List<Problem.FieldError> errors) {
        if (v == null || v.isNull() || v.isMissingNode()) {
            return null;
        }
        OptionalLong rate = v.isIntegralNumber() || v.isTextual() ? parse(v.asText())
                : v.isNumber() ? whole(v.doubleValue()) : OptionalLong.empty();
        if (rate.isEmpty()) {
            errors.add(new Problem.FieldError(field, EXPECTED));
            return null;
        }
        return rate.getAsLong();
    }

    /** A number written with a fraction or an exponent (4000000.0, 4e6) is whole when its value is, as JSON Schema's integer takes it. */
    private static OptionalLong whole(double bytes) {
        return bytes == Math.rint(bytes) && bytes >= MIN && bytes <= MAX ? OptionalLong.of((long) bytes) : OptionalLong.empty();
    }

    /** From a job's params as stored (accepted at submission, so right): bytes/s, null when the job has no cap. */
    public static Long ofParams(JsonNode params) {
        return read(params.get("max_rate"), "params.max_rate", new ArrayList<>());
    }

    /** What a bad value is told. */
    public static String expected() {
        return EXPECTED;
    }
}
