package io.ferry.scheduler.probes;

import io.ferry.problem.ProblemException;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** How far back a read of the monitor or of the probes' series looks, as its {@code window} parameter names it. */
public final class LookBack {

    private static final Pattern WINDOW = Pattern.compile("(\\d{1,4})([mhd])");
    private static final Duration LONGEST = Duration.ofDays(30);

    private LookBack() {
    }

    /** A window such as {@code 30m}, {@code 6h} or {@code 7d}, at most 30 days. */
    public static Duration parse(String value) {
        Matcher m = WINDOW.matcher(value == null ? "" : value.trim());
        if (!m.matches()) {
            throw ProblemException.badRequest("window", "minutes, hours or days such as 30m, 6h, 7d");
        }
        long n = Long.parseLong(m.group(1));
        Duration d = switch (m.group(2)) {
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
        };
        if (d.isZero() || d.compareTo(LONGEST) > 0) {
            throw ProblemException.badRequest("window", "more than nothing and at most 30d");
        }
        return d;
    }
}
