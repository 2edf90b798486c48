package io.ferry.cli.config;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The part of TOML a config file of endpoints needs: {@code [table]} headers, {@code key = "string"} (basic or
 * literal), bare numbers and booleans as text, {@code #} comments. Keys come back as {@code table.key}. Anything else
 * (arrays, inline tables, multi-line strings) is refused with its line number rather than half read.
 */
public final class TomlSubset {

    private TomlSubset() {
    }

    public static Map<String, String> parse(String text) {
        Map<String, String> values = new LinkedHashMap<>();
        String table = "";
        int lineNo = 0;
        for (String raw : text.split("\\R", -1)) {
            lineNo++;
            String line = stripComment(raw).strip();
            if (line.isEmpty()) {
                continue;
            }
            if (line.startsWith("[")) {
                if (!line.endsWith("]") || line.startsWith("[[")) {
                    throw new IllegalArgumentException("line " + lineNo + ": expected [table]");
                }
                table = line.substring(1, line.length() - 1).strip();
                continue;
            }
            int eq = line.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("line " + lineNo + ": expected key = value");
            }
            String key = unquote(line.substring(0, eq).strip(), lineNo);
            values.put(table.isEmpty() ? key : table + "." + key, value(line.substring(eq + 1).strip(), lineNo));
        }
        return values;
    }

    private static String value(String v, int lineNo) {
        if (v.startsWith("\"\"\"") || v.startsWith("'''") || v.startsWith("[") || v.startsWith("{")) {
            throw new IllegalArgumentException("line " + lineNo + ": only strings, numbers and booleans are read here");
        }
        if (v.startsWith("\"") || v.startsWith("'")) {
            return unquote(v, lineNo);
        }
        if (v.matches("[A-Za-z0-9_.+:-]+")) {
            return v;
        }
        throw new IllegalArgumentException("line " + lineNo + ": cannot read the value " + v);
    }

    private static String unquote(String s, int lineNo) {
        if (s.length() >= 2 && s.startsWith("'") && s.endsWith("'")) {
            return s.substring(1, s.length() - 1);
        }
        if (s.length() >= 2 && s.startsWith("\"") && s.endsWith("\"")) {
            StringBuilder b = new StringBuilder();
            String body = s.substring(1, s.length() - 1);
            for (int i = 0; i < body.length(); i++) {
                char c = body.charAt(i);
                if (c == '\\' && i + 1 < body.length()) {
                    char e = body.charAt(++i);
                    switch (e) {
                        case 'n' -> b.append('\n');
                        case 't' -> b.append('\t');
                        case '"' -> b.append('"');
                        case '\\' -> b.append('\\');
                        default -> throw new IllegalArgumentException("line " + lineNo + ": unknown escape \\" + e);
                    }
                } else {
                    b.append(c);
                }
            }
            return b.toString();
        }
        if (s.startsWith("\"") || s.startsWith("'")) {
            throw new IllegalArgumentException("line " + lineNo + ": unterminated string");
        }
        return s;
    }

    /** The line without a {@code #} comment that is outside quotes. */
    private static String stripComment(String line) {
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote == 0 && (c == '"' || c == '\'')) {
                quote = c;
            } else if (quote != 0 && c == quote && (quote == '\'' || line.charAt(i - 1) != '\\')) {
                quote = 0;
            } else if (quote == 0 && c == '#') {
                return line.substring(0, i);
            }
        }
        return line;
    }
}
