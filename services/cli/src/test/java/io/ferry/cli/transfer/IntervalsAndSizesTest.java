package io.ferry.cli.transfer;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class IntervalsAndSizesTest {

    @Test
    void intervals() {
        assertEquals(Duration.ofSeconds(90), Intervals.parse("90s"));
        assertEquals(Duration.ofMinutes(30), Intervals.parse("30m"));
        assertEquals(Duration.ofHours(12), Intervals.parse("12h"));
        assertEquals(Duration.ofHours(12), Intervals.parse("12"));
        assertEquals(Duration.ofDays(2), Intervals.parse("2D"));
        assertEquals(Duration.ofDays(14), Intervals.parse("2w"));
        assertEquals(Duration.ofMinutes(90), Intervals.parse("1h30m"));
        assertThrows(IllegalArgumentException.class, () -> Intervals.parse("12 hours"));
        assertThrows(IllegalArgumentException.class, () -> Intervals.parse("-1h"));
        assertThrows(IllegalArgumentException.class, () -> Intervals.parse(""));
    }

    @Test
    void timeWindowsAreHoursColonMinutesRoundedUp() {
        assertEquals("6:0", Intervals.timeWindow(Duration.ofHours(6)));
        assertEquals("1:30", Intervals.timeWindow(Duration.ofMinutes(90)));
        assertEquals("0:2", Intervals.timeWindow(Duration.ofSeconds(61)));
    }

    @Test
    void sizes() {
        assertEquals(123, Sizes.parse("123"));
        assertEquals(10_000_000_000L, Sizes.parse("10GB"));
        assertEquals(10_000_000_000L, Sizes.parse("10 gb"));
        assertEquals(2L << 30, Sizes.parse("2GiB"));
        assertEquals(1_500_000, Sizes.parse("1.5MB"));
        assertEquals(500_000, Sizes.parse("500k"));
        assertThrows(IllegalArgumentException.class, () -> Sizes.parse("1.5"));
        assertThrows(IllegalArgumentException.class, () -> Sizes.parse("ten"));
        assertThrows(IllegalArgumentException.class, () -> Sizes.parse("10XB"));
    }
}
