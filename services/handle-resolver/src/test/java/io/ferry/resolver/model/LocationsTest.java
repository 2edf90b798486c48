package io.ferry.resolver.model;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The 10320/loc parser: what it reads, and that hostile input costs no more than its length. */
class LocationsTest {

    @Test
    void readsLocationsAndTheirAttributesAsBefore() {
        List<Locations.Location> all = Locations.parse("<locations><location id=\"0\" href=\"https://a.example/f\" weight=\"1\" country=\"ch\"/>"
                + "<LOCATION href = \"https://b.example/f?x=1&amp;y=2\"  weight=\"3\" country=\"gb\" >"
                + "<location weight=\"2\"/><locationfoo href=\"https://no.example/\"/><location href=\"https://c.example/\" weight=\"bad\"/>"
                + "<location junk another=\"x\" href=\"https://d.example/\" weight=\"-1\"/></locations>");
        assertEquals(4, all.size());
        assertEquals(new Locations.Location("https://a.example/f", 1, Map.of("id", "0", "href", "https://a.example/f", "weight", "1", "country", "ch")), all.get(0));
        assertEquals("https://b.example/f?x=1&y=2", all.get(1).href());
        assertEquals(3, all.get(1).weight());
        assertEquals("gb", all.get(1).attributes().get("country"));
        assertEquals(1, all.get(2).weight(), "a malformed weight counts as the default");
        assertEquals("https://d.example/", all.get(3).href());
        assertEquals(0, all.get(3).weight(), "a negative weight counts as 0");
        assertEquals(List.of(), Locations.parse("<location href=\"https://a.example/\""), "an element without '>' is no location");
        assertEquals(List.of(), Locations.parse(null));
    }

    /** Inputs that made the regular expressions take quadratic time (32 k characters took seconds). */
    static final Map<String, IntFunction<String>> HOSTILE = Map.of(
            "one attribute name as long as the value", n -> "<location " + "a".repeat(n) + ">",
            "many elements without '>'", n -> "<location ".repeat(n / 10),
            "many names without '='", n -> "<location " + "a ".repeat(n / 2) + ">",
            "many '=' without quotes", n -> "<location " + "a=".repeat(n / 2) + ">",
            "an unclosed quote", n -> "<location a=\"" + "x".repeat(n) + ">",
            "many '<' ", n -> "<".repeat(n) + ">",
            "many attributes", n -> "<location " + "a=\"b\" ".repeat(n / 6) + "href=\"https://a.example/\">");

    @Test
    void theWorkIsLinearInTheLengthOfHostileInput() {
        for (Map.Entry<String, IntFunction<String>> input : HOSTILE.entrySet()) {
            long small = work(input.getValue().apply(32_768));
            long large = work(input.getValue().apply(65_536));
            String what = input.getKey() + ": " + small + " steps for 32 k characters, " + large + " for 64 k";
            assertTrue(large <= 2.2 * small, "twice the input, at most twice the work — " + what);
            assertTrue(large <= 12L * 65_536, "a bounded number of steps per character — " + what);
        }
    }

    private static long work(String xml) {
        long[] work = new long[1];
        Locations.parse(xml, work);
        return work[0];
    }
}
