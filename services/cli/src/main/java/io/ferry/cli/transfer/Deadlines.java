package io.ferry.cli.transfer;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;

/**
 * A job's deadline as people type it: a time with its offset ({@code 2026-12-07T18:00:00Z}, RFC 3339) or an
 * interval from now ({@code 2h}, {@code 1d}: {@link Intervals}); sent to the scheduler as RFC 3339 in UTC.
 */
public final class Deadlines {

    private Deadlines() {
    }

    public static String resolve(String text, Instant now) {
        String s = text == null ? "" : text.strip();
        try {
            return OffsetDateTime.parse(s, DateTimeFormatter.ISO_OFFSET_DATE_TIME).withOffsetSameInstant(ZoneOffset.UTC).toInstant().toString();
        } catch (DateTimeParseException notATime) {
            try {
                return now.plus(Intervals.parse(s)).truncatedTo(ChronoUnit.SECONDS).toString();
            } catch (IllegalArgumentException notAnInterval) {
                throw new IllegalArgumentException("'" + text + "' is no deadline: use a time with its offset (2026-12-07T18:00:00Z) or an interval from now (2h, 1d)");
            }
        }
    }
}
