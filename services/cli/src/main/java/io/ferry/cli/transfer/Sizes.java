package io.ferry.cli.transfer;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Sizes as people type them: bytes, or with a unit, decimal ({@code 10GB}, {@code 500kB}) or binary ({@code 2GiB}). */
public final class Sizes {

    private static final Pattern SIZE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*([kmgtp]i?)?b?", Pattern.CASE_INSENSITIVE);

    private Sizes() {
    }

    public static long parse(String text) {
        Matcher m = SIZE.matcher(text == null ? "" : text.strip());
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is no size: use bytes, or e.g. 500MB, 10GB, 2GiB");
        }
        String unit = m.group(2) == null ? "" : m.group(2).toLowerCase(Locale.ROOT);
        boolean binary = unit.endsWith("i");
        int power = unit.isEmpty() ? 0 : "kmgtp".indexOf(unit.charAt(0)) + 1;
        BigDecimal factor = BigDecimal.valueOf(binary ? 1024 : 1000).pow(power);
        BigDecimal bytes = new BigDecimal(m.group(1)).multiply(factor);
        if (bytes.stripTrailingZeros().scale() > 0) {
            throw new IllegalArgumentException("'" + text + "' is not a whole number of bytes");
        }
        return bytes.longValueExact();
    }
}
