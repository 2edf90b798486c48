package io.ferry.scheduler.fts3;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Times as FTS3 answers them: UTC, to the second, without a zone suffix. Its client and Rucio's conveyor parse them
 * with {@code strptime(..., '%Y-%m-%dT%H:%M:%S')}, which refuses fractions and offsets.
 */
public final class Fts3Time {

    private static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss");

    private Fts3Time() {
    }

    /** {@code null} stays null (FTS3 answers JSON null for a time not reached yet). */
    public static String format(OffsetDateTime t) {
        return t == null ? null : FORMAT.format(t.withOffsetSameInstant(ZoneOffset.UTC));
    }
}
