package io.ferry.resolver.model;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * 10320/loc multi-location values: {@code <locations><location href="…" weight="1" country="gb"/>…</locations>}.
 * A location is chosen by the requested attributes ({@code locatt=country:gb}) when any match, then at random in
 * proportion to {@code weight} (default 1; weight 0 only when nothing else is left).
 * <p>
 * The parser reads every character a bounded number of times: a value is parsed when it is written (the parsed
 * form is stored), never per resolution, and hostile input (a {@code <location} without {@code >}, an attribute
 * name thousands of characters long) costs no more than its length. It accepts what the regular expressions
 * {@code <location\b([^>]*)/?>} (ASCII case-insensitive) and, inside, {@code name\s*=\s*"value"} used to.
 */
public final class Locations {

    public record Location(String href, double weight, Map<String, String> attributes) {
    }

    private static final String TAG = "<location";

    private Locations() {
    }

    public static List<Location> parse(String xml) {
        return parse(xml, new long[1]);
    }

    /** {@code work[0]} is increased by the characters examined, so that tests can check the work is linear. */
    static List<Location> parse(String xml, long[] work) {
        List<Location> out = new ArrayList<>();
        if (xml == null) {
            return out;
        }
        int n = xml.length();
        int i = 0;
        while (i < n) {
            int start = indexOfTag(xml, i, work);
            if (start < 0) {
                break;
            }
            int after = start + TAG.length();
            if (after < n && wordChar(xml.charAt(after))) {
                // <locations>, <locationfoo: not a location element (the \b of the expression)
                i = after;
                continue;
            }
            int end = after;
            while (end < n && xml.charAt(end) != '>') {
                end++;
            }
            work[0] += end - after + 1;
            if (end == n) {
                // no '>' from here on: no later element can be complete either
                break;
            }
            Map<String, String> attrs = attributes(xml, after, end, work);
            i = end + 1;
            String href = attrs.get("href");
            if (href == null || href.isBlank()) {
                continue;
            }
            double weight = 1;
            try {
                weight = attrs.containsKey("weight") ? Math.max(0, Double.parseDouble(attrs.get("weight"))) : 1;
            } catch (NumberFormatException ignored) {
                // a malformed weight counts as the default
            }
            if (Double.isNaN(weight) || Double.isInfinite(weight)) {
                weight = 1;
            }
            out.add(new Location(href, weight, attrs));
        }
        return out;
    }

    /** The next {@code <location} (ASCII case-insensitive) at or after {@code from}, or -1. */
    private static int indexOfTag(String s, int from, long[] work) {
        int last = s.length() - TAG.length();
        for (int i = from; i <= last; i++) {
            work[0]++;
            if (s.charAt(i) != '<') {
                continue;
            }
            int k = 1;
            while (k < TAG.length() && Character.toLowerCase(s.charAt(i + k)) == TAG.charAt(k) && s.charAt(i + k) < 0x80) {
                k++;
            }
            work[0] += k;
            if (k == TAG.length()) {
                return i;
            }
        }
        return -1;
    }

    /**
     * {@code name\s*=\s*"value"} pairs in {@code s[from, to)}, as a regular expression's successive finds see them.
     * A failed attempt resumes where it failed: every start inside the name it read fails the same way.
     */
    private static Map<String, String> attributes(String s, int from, int to, long[] work) {
        Map<String, String> attrs = new LinkedHashMap<>();
        int j = from;
        while (j < to) {
            work[0]++;
            if (!nameStart(s.charAt(j))) {
                j++;
                continue;
            }
            int nameEnd = j + 1;
            while (nameEnd < to && nameChar(s.charAt(nameEnd))) {
                nameEnd++;
            }
            int k = skipSpace(s, nameEnd, to);
            work[0] += k - j;
            if (k >= to || s.charAt(k) != '=') {
                j = k;
                continue;
            }
            int q = skipSpace(s, k + 1, to);
            work[0] += q - k;
            if (q >= to || s.charAt(q) != '"') {
                j = q;
                continue;
            }
            int close = q + 1;
            while (close < to && s.charAt(close) != '"') {
                close++;
            }
            work[0] += close - q;
            if (close >= to) {
                // an unclosed quote: no pair can start after it
                break;
            }
            attrs.put(s.substring(j, nameEnd), unescape(s.substring(q + 1, close)));
            j = close + 1;
        }
        return attrs;
    }

    private static int skipSpace(String s, int i, int to) {
        while (i < to && " \t\n\u000B\f\r".indexOf(s.charAt(i)) >= 0) {
            i++;
        }
        return i;
    }

    private static boolean wordChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    }

    private static boolean nameStart(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
    }

    private static boolean nameChar(char c) {
        return nameStart(c) || (c >= '0' && c <= '9') || c == '-' || c == '.';
    }

    /** Picks a location; {@code locatt} is "name:value" or null. */
    public static Location choose(List<Location> all, String locatt, Random random) {
        if (all.isEmpty()) {
            return null;
        }
        List<Location> candidates = all;
        if (locatt != null && locatt.contains(":")) {
            String key = locatt.substring(0, locatt.indexOf(':'));
            String value = locatt.substring(locatt.indexOf(':') + 1);
            List<Location> matching = all.stream().filter(l -> value.equalsIgnoreCase(l.attributes().get(key))).toList();
            if (!matching.isEmpty()) {
                candidates = matching;
            }
        }
        double total = candidates.stream().mapToDouble(Location::weight).sum();
        if (total <= 0) {
            return candidates.get(random.nextInt(candidates.size()));
        }
        double r = random.nextDouble() * total;
        for (Location l : candidates) {
            r -= l.weight();
            if (r < 0) {
                return l;
            }
        }
        return candidates.get(candidates.size() - 1);
    }

    private static String unescape(String s) {
        if (s.indexOf('&') < 0) {
            return s;
        }
        return s.replace("&quot;", "\"").replace("&lt;", "<").replace("&gt;", ">").replace("&apos;", "'").replace("&amp;", "&");
    }
}
