package io.ferry.profiles.model;


import java.util.regex.Pattern;

/**
 * Text that goes into rendered host configuration. sysctl.d, TuneD's ini files and YAML all end a line at CR or LF
 * (YAML and Python also at NEL, LS and PS), so a line break inside a summary or a label value would start a line of
 * its own: a setting that never passed the allow-list. Inputs are refused such characters; the renderers escape
 * what is stored anyway.
 */
public final class ConfigText {

    /**
     * A single line: no C0 or C1 control character (CR, LF, NUL, tab, NEL, ...), no Unicode line or paragraph
     * separator. Anchored, as the OpenAPI document's patterns otherwise match anywhere in a value.
     */
    public static final String SINGLE_LINE = "^[^\\x00-\\x1F\\x7F-\\x9F\\u2028\\u2029]*$";
    public static final String SINGLE_LINE_MESSAGE = "must be a single line without control characters";

    private static final Pattern PLAIN_YAML = Pattern.compile("[A-Za-z][A-Za-z0-9._/-]*");
    private static final Pattern YAML_KEYWORD = Pattern.compile("(?i)true|false|yes|no|y|n|on|off|null");

    private ConfigText() {
    }

    public static boolean isSingleLine(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (breaksLine(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@code s} as one line of printable text: every control character, line or paragraph separator and unpaired
     * surrogate (which YAML cannot carry) becomes a space.
     */
    public static String singleLine(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (breaksLine(c) || c == '\uFFFE' || c == '\uFFFF') {
                out.append(' ');
            } else if (Character.isSurrogate(c)) {
                boolean paired = Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
                if (paired) {
                    out.append(c).append(s.charAt(++i));
                } else {
                    out.append(' ');
                }
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /**
     * A YAML scalar that reads back as exactly {@code s}: plain when it cannot be mistaken for anything else, else
     * double-quoted with every character that could end the line, the quote or the document escaped.
     */
    public static String yamlScalar(String s) {
        if (PLAIN_YAML.matcher(s).matches() && !YAML_KEYWORD.matcher(s).matches()) {
            return s;
        }
        StringBuilder out = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    boolean unpaired = Character.isSurrogate(c) && !(Character.isHighSurrogate(c) && i + 1 < s.length()
                            && Character.isLowSurrogate(s.charAt(i + 1)));
                    if (unpaired) {
                        out.append("\\uFFFD");
                    } else if (breaksLine(c) || c == '\uFFFE' || c == '\uFFFF' || c == '\uFEFF') {
                        out.append(String.format("\\u%04X", (int) c));
                    } else {
                        out.append(c);
                        if (Character.isHighSurrogate(c)) {
                            out.append(s.charAt(++i));
                        }
                    }
                }
            }
        }
        return out.append('"').toString();
    }

    private static boolean breaksLine(char c) {
        return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029';
    }
}
