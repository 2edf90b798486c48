package io.ferry.rates.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.datatype.jsr310.deser.InstantDeserializer;

import java.io.IOException;
import java.time.DateTimeException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * Reads ISO-8601 timestamps as UTC {@link OffsetDateTime}s. The common shapes ({@code 2026-11-30T02:16:05Z},
 * fractional seconds, a {@code ±hh:mm} offset) are read by hand: every record carries up to seven timestamps,
 * and {@code DateTimeFormatter} parsing was a third of the ingest CPU. Any other text (and every malformed
 * value, so that errors read as before) goes to Jackson's own deserializer, which gives the same result; a value that
 * is not text is refused.
 */
public final class UtcTimestampDeserializer extends JsonDeserializer<OffsetDateTime> {

    private static final JsonDeserializer<OffsetDateTime> STANDARD = InstantDeserializer.OFFSET_DATE_TIME;

    @Override
    public OffsetDateTime deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
        if (p.currentToken() != JsonToken.VALUE_STRING) {
            // Jackson's own would read a number as seconds since 1970: the API takes ISO-8601 text only
            return (OffsetDateTime) ctxt.handleUnexpectedToken(OffsetDateTime.class, p);
        }
        OffsetDateTime fast = parse(p.getText());
        return fast != null ? fast : STANDARD.deserialize(p, ctxt);
    }

    /** The timestamp in UTC, or null when the text is not one of the common shapes (or not a valid date). */
    static OffsetDateTime parse(String s) {
        int n = s.length();
        if (n < 20 || s.charAt(4) != '-' || s.charAt(7) != '-' || s.charAt(10) != 'T' || s.charAt(13) != ':'
                || s.charAt(16) != ':') {
            return null;
        }
        int year = digits(s, 0, 4), month = digits(s, 5, 2), day = digits(s, 8, 2);
        int hour = digits(s, 11, 2), minute = digits(s, 14, 2), second = digits(s, 17, 2);
        if ((year | month | day | hour | minute | second) < 0) {
            return null;
        }
        int i = 19, nanos = 0;
        if (s.charAt(i) == '.') {
            int start = ++i;
            while (i < n && i - start < 9 && isDigit(s.charAt(i))) {
                nanos = nanos * 10 + (s.charAt(i++) - '0');
            }
            if (i == start || (i < n && isDigit(s.charAt(i)))) {
                return null;
            }
            for (int k = i - start; k < 9; k++) {
                nanos *= 10;
            }
        }
        if (i >= n) {
            return null;
        }
        int offsetSeconds;
        char c = s.charAt(i);
        if (c == 'Z' && i + 1 == n) {
            offsetSeconds = 0;
        } else if ((c == '+' || c == '-') && i + 6 == n && s.charAt(i + 3) == ':') {
            int oh = digits(s, i + 1, 2), om = digits(s, i + 4, 2);
            if ((oh | om) < 0 || oh > 18 || om > 59) {
                return null;
            }
            offsetSeconds = (c == '-' ? -1 : 1) * (oh * 3600 + om * 60);
        } else {
            return null;
        }
        try {
            if (offsetSeconds == 0) {
                return OffsetDateTime.of(year, month, day, hour, minute, second, nanos, ZoneOffset.UTC);
            }
            return OffsetDateTime.of(year, month, day, hour, minute, second, nanos, ZoneOffset.ofTotalSeconds(offsetSeconds))
                    .withOffsetSameInstant(ZoneOffset.UTC);
        } catch (DateTimeException e) {
            return null;
        }
    }

    private static int digits(String s, int from, int count) {
        int v = 0;
        for (int k = from; k < from + count; k++) {
            char c = s.charAt(k);
            if (!isDigit(c)) {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
