package io.ferry.resolver.model;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * 10320/loc multi-location values: {@code <locations><location href="…" weight="1" country="gb"/>…</locations>}.
 * A location is chosen by the requested attributes ({@code locatt=country:gb}) when any match, then at random in
 * proportion to {@code weight} (default 1; weight 0 only when nothing else is left).
 */
public final class Locations {

    public record Location(String href, double weight, Map<String, String> attributes) {
    }

    private static final Pattern LOCATION = Pattern.compile("<location\\b([^>]*)/?>", Pattern.CASE_INSENSITIVE);
    private static final Pattern ATTRIBUTE = Pattern.compile("([A-Za-z_:][-A-Za-z0-9_:.]*)\\s*=\\s*\"([^\"]*)\"");

    private Locations() {
    }

    public static List<Location> parse(String xml) {
        List<Location> out = new ArrayList<>();
        if (xml == null) {
            return out;
        }
        Matcher m = LOCATION.matcher(xml);
        while (m.find()) {
            Map<String, String> attrs = new LinkedHashMap<>();
            Matcher a = ATTRIBUTE.matcher(m.group(1));
            while (a.find()) {
                attrs.put(a.group(1), unescape(a.group(2)));
            }
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
            out.add(new Location(href, weight, attrs));
        }
        return out;
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
        return s.replace("&quot;", "\"").replace("&lt;", "<").replace("&gt;", ">").replace("&apos;", "'").replace("&amp;", "&");
    }
}
