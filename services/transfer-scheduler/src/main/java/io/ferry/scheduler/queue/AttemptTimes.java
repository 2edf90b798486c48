package io.ferry.scheduler.queue;

import java.time.OffsetDateTime;

/** When the phases of one attempt started and ended (null for a phase it did not reach). */
public record AttemptTimes(OffsetDateTime prepareStarted, OffsetDateTime prepareEnded, OffsetDateTime transferStarted,
                           OffsetDateTime transferEnded, OffsetDateTime checksumStarted, OffsetDateTime checksumEnded) {

    /** The same attempt with the end of the phase it was in set to {@code end} (for attempts cut short). */
    public AttemptTimes withEnd(OffsetDateTime end) {
        if (prepareStarted != null && prepareEnded == null) {
            return new AttemptTimes(prepareStarted, end, null, null, null, null);
        }
        // a record needs at least one timestamp: the moment the attempt was given up
        return new AttemptTimes(prepareStarted, prepareEnded, end, end, null, null);
    }

    public static AttemptTimes prepare(OffsetDateTime started, OffsetDateTime ended) {
        return new AttemptTimes(started, ended, null, null, null, null);
    }
}
