package io.ferry.resolver.model;

/** A handle {@code prefix/suffix}; prefixes are dotted segments such as 10.1234 or 20.500.12345. */
public record HandleName(String prefix, String suffix) {

    public static final int MAX_LENGTH = 512;

    /** Null when {@code text} is not a well-formed handle. */
    public static HandleName parse(String text) {
        if (text == null || text.length() > MAX_LENGTH) {
            return null;
        }
        int slash = text.indexOf('/');
        if (slash <= 0 || slash == text.length() - 1) {
            return null;
        }
        String prefix = text.substring(0, slash);
        String suffix = text.substring(slash + 1);
        if (!prefix.matches("[0-9A-Za-z]+(\\.[0-9A-Za-z]+)*")) {
            return null;
        }
        for (char c : suffix.toCharArray()) {
            if (c < 0x20 || c == 0x7f) {
                return null;
            }
        }
        return new HandleName(prefix, suffix);
    }

    @Override
    public String toString() {
        return prefix + "/" + suffix;
    }

    /** The handle that holds a prefix's own administrators, as in Handle.net: 0.NA/&lt;prefix&gt;. */
    public static String prefixHandle(String prefix) {
        return "0.NA/" + prefix;
    }
}
