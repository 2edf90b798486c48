package io.ferry.scheduler.submission;

import com.fasterxml.jackson.databind.JsonNode;
import io.ferry.problem.Problem;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;

/**
 * {@code params.deadline}: the time by which the job's files must be done, RFC 3339 with its offset (for example
 * {@code 2026-12-07T18:00:00Z}). The engine claims files with nearer deadlines first and cancels what is still
 * unfinished when it passes. It must lie ahead, and no further than a {@code max_time_in_queue} may.
 */
public final class JobDeadline {

    static final String FIELD = "params.deadline";
    private static final String FORM = "a time with its offset (RFC 3339), e.g. 2026-12-07T18:00:00Z";

    private JobDeadline() {
    }

    /** The deadline in UTC, null when none is given; a wrong one is added to {@code errors}. */
    static OffsetDateTime read(JsonNode v, Instant now, List<Problem.FieldError> errors) {
        if (v == null || v.isNull() || v.isMissingNode()) {
            return null;
        }
        if (!v.isTextual() || v.asText().length() > 64) {
            errors.add(new Problem.FieldError(FIELD, FORM));
            return null;
        }
        OffsetDateTime at;
        try {
            at = OffsetDateTime.parse(v.asText().trim(), DateTimeFormatter.ISO_OFFSET_DATE_TIME);
        } catch (DateTimeParseException e) {
            errors.add(new Problem.FieldError(FIELD, FORM));
            return null;
        }
        if (!at.toInstant().isAfter(now)) {
            errors.add(new Problem.FieldError(FIELD, "already passed: it is " + now + " now"));
            return null;
        }
        if (at.toInstant().isAfter(now.plusSeconds(Submission.MAX_INTERVAL_SECONDS))) {
            errors.add(new Problem.FieldError(FIELD, "at most 366 days ahead"));
            return null;
        }
        return at.withOffsetSameInstant(ZoneOffset.UTC);
    }
}
