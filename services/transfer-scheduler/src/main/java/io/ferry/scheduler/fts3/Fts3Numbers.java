package io.ferry.scheduler.fts3;

import com.fasterxml.jackson.databind.JsonNode;

/** JSON numbers in the fields FTS3's clients send as whole numbers. */
public final class Fts3Numbers {

    /** Beyond this a double no longer holds every whole number exactly. */
    private static final double EXACT = 1e15;

    private Fts3Numbers() {
    }

    /**
     * The digits of a JSON number without a fraction ({@code 5.0} is {@code "5"}: JSON has no integer type, and JSON
     * Schema's integer takes it), or null for anything else: text, a fraction, a number too large to be exact.
     */
    public static String wholeNumberText(JsonNode v) {
        if (v == null || !v.isNumber()) {
            return null;
        }
        double d = v.asDouble();
        return d == Math.rint(d) && Math.abs(d) < EXACT ? String.valueOf((long) d) : null;
    }
}
