package io.ferry.profiles.model;

import io.ferry.problem.ProblemException;

import java.util.Locale;

/** Round-trip times as people write them: "150ms", "0.15s", "150" (milliseconds). */
public final class Rtt {

    private Rtt() {
    }

    public static double parseMillis(String field, String text) {
        if (text == null || text.isBlank()) {
            throw ProblemException.badRequest(field, "an RTT is required, e.g. 150ms");
        }
        String t = text.trim().toLowerCase(Locale.ROOT);
        try {
            double ms;
            if (t.endsWith("ms")) {
                ms = Double.parseDouble(t.substring(0, t.length() - 2));
            } else if (t.endsWith("us")) {
                ms = Double.parseDouble(t.substring(0, t.length() - 2)) / 1000;
            } else if (t.endsWith("s")) {
                ms = Double.parseDouble(t.substring(0, t.length() - 1)) * 1000;
            } else {
                ms = Double.parseDouble(t);
            }
            if (!(ms > 0) || ms > 10_000) {
                throw ProblemException.badRequest(field, "RTT must be above 0 and at most 10 s");
            }
            return ms;
        } catch (NumberFormatException e) {
            throw ProblemException.badRequest(field, "not an RTT: '" + text + "' (use e.g. 150ms or 0.15s)");
        }
    }
}
