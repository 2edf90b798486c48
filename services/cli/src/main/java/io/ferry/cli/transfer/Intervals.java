package io.ferry.cli.transfer;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Intervals as people type them: {@code 90s}, {@code 30m}, {@code 12h}, {@code 2d}, {@code 1w}, or combined
 * ({@code 1h30m}); a bare number is hours, as FTS3's {@code max_time_in_queue} counts.
 */
public final class Intervals {

    private static final Pattern PART = Pattern.compile("(\\d+)([smhdw])");

    private Intervals() {
    }

    public static Duration parse(String text) {
        String s = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
        if (s.matches("\\d{1,6}")) {
            return Duration.ofHours(Long.parseLong(s));
        }
        if (!s.matches("(\\d{1,7}[smhdw])+")) {
            throw new IllegalArgumentException("'" + text + "' is no interval: use e.g. 90s, 30m, 12h, 2d or 1h30m");
        }
        Duration d = Duration.ZERO;
        Matcher m = PART.matcher(s);
        while (m.find()) {
            long n = Long.parseLong(m.group(1));
            d = d.plus(switch (m.group(2)) {
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                case "d" -> Duration.ofDays(n);
                default -> Duration.ofDays(7 * n);
            });
        }
        return d;
    }

    /** FTS3's {@code time_window}: {@code hours:minutes} (seconds round up to a minute). */
    public static String timeWindow(Duration d) {
        long minutes = (d.toSeconds() + 59) / 60;
        return (minutes / 60) + ":" + (minutes % 60);
    }
}
