package io.ferry.rates.model;

import io.ferry.problem.ProblemException;

/**
 * What SE and site names may be, and which characters no text field may carry. Names reach the dashboard, rollup
 * keys and every query; a plain character set keeps markup and separators out of all of them. Checked by hand, not
 * with a regular expression: ingest checks four names per record at tens of thousands of records per second.
 */
public final class Names {

    public static final int MAX_NAME = 100;
    public static final String RULE = "letters, digits, '_', '.', ':' and '-', starting with a letter or digit, at most 100";

    private Names() {
    }

    /** {@code [A-Za-z0-9][A-Za-z0-9_.:-]{0,99}}: RAL-LCG2, CERN-PROD, BNL-OSG2_DATADISK. */
    public static boolean isName(String s) {
        int n = s.length();
        if (n == 0 || n > MAX_NAME || !alnum(s.charAt(0))) {
            return false;
        }
        for (int i = 1; i < n; i++) {
            char c = s.charAt(i);
            if (!alnum(c) && c != '_' && c != '.' && c != ':' && c != '-') {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether {@code s} holds a character a single-line field must not: C0 and C1 controls (NUL, which PostgreSQL
     * cannot store in text, CR, LF, tab, ...), DEL, and the Unicode line and paragraph separators.
     */
    public static boolean hasControl(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (isControl(s.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    /** Like {@link #hasControl} but lets tabs and line breaks through (multi-line text such as an error message). */
    public static boolean hasControlBesidesLineBreaks(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (isControl(c) && c != '\n' && c != '\r' && c != '\t') {
                return true;
            }
        }
        return false;
    }

    static boolean isControl(char c) {
        return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029';
    }

    /** A name given as a query parameter: absent, or free of control characters (it then matches or not). */
    public static String queryName(String field, String value) {
        if (value != null && hasControl(value)) {
            throw ProblemException.badRequest(field, "must not contain control characters");
        }
        return value;
    }

    private static boolean alnum(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    }
}
