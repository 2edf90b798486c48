package io.ferry.movers;

import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/** HTTP dates (RFC 9110 IMF-fixdate, as in {@code Last-Modified}). */
final class HttpDates {

    private HttpDates() {
    }

    /** The instant of an HTTP date, or null when there is none or it cannot be read (the time is then unknown). */
    static Instant parse(String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            return ZonedDateTime.parse(value.trim(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
