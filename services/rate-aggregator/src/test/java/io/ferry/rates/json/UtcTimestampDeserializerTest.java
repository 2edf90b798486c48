package io.ferry.rates.json;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import org.junit.jupiter.api.Test;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The hand-written reader must give exactly what Jackson's own gives, and leave every odd shape to it. */
class UtcTimestampDeserializerTest {

    private final ObjectMapper standard = new ObjectMapper().registerModule(new JavaTimeModule());
    private final ObjectMapper fast = new ObjectMapper().registerModule(new JavaTimeModule())
            .registerModule(new SimpleModule().addDeserializer(OffsetDateTime.class, new UtcTimestampDeserializer()));

    @Test
    void sameInstantsAsJacksonForEveryShape() throws Exception {
        for (String s : List.of("2026-11-30T02:16:05Z", "2026-11-30T02:16:05.1Z", "2026-11-30T02:16:05.123456789Z",
                "2024-02-29T23:59:59.5+02:00", "2026-01-01T00:30:00-05:30", "2026-11-30T02:16:05+00:00",
                "2026-11-30T02:16:05.000001-00:00", "2026-11-30T02:16Z", "2026-11-30T02:16:05", "20261130T021605Z")) {
            String json = "\"" + s + "\"";
            Object want;
            try {
                want = standard.readValue(json, OffsetDateTime.class);
            } catch (Exception e) {
                want = e.getClass();
            }
            Object got;
            try {
                got = fast.readValue(json, OffsetDateTime.class);
            } catch (Exception e) {
                got = e.getClass();
            }
            assertEquals(want, got, s);
        }
        assertEquals(OffsetDateTime.of(2024, 2, 29, 21, 59, 59, 500_000_000, ZoneOffset.UTC),
                fast.readValue("\"2024-02-29T23:59:59.5+02:00\"", OffsetDateTime.class));
    }

    @Test
    void aNumberIsNotATimestamp() {
        // Jackson's own would read it as seconds since 1970; the API documents ISO-8601 text, and says so in a 400
        assertThrows(MismatchedInputException.class, () -> fast.readValue("1700000000", OffsetDateTime.class));
        assertThrows(MismatchedInputException.class, () -> fast.readValue("true", OffsetDateTime.class));
    }

    @Test
    void impossibleDatesAreRejectedAsBefore() {
        assertNull(UtcTimestampDeserializer.parse("2026-02-30T00:00:00Z"));
        assertNull(UtcTimestampDeserializer.parse("2026-11-30T24:00:01Z"));
        assertNull(UtcTimestampDeserializer.parse("2026-11-30T02:16:05.1234567890Z"));
        assertThrows(InvalidFormatException.class, () -> fast.readValue("\"2026-02-30T00:00:00Z\"", OffsetDateTime.class));
    }
}
