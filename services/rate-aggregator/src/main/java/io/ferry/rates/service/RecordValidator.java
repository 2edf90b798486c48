package io.ferry.rates.service;

import io.ferry.problem.Problem;
import io.ferry.rates.model.Names;
import io.ferry.rates.api.TransferRecord;
import jakarta.inject.Singleton;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks a transfer record beyond its field syntax: phases must not run backwards, times must be plausible. A
 * {@code @Singleton} (no client proxy): it is called for every ingested record.
 */
@Singleton
public class RecordValidator {

    private static final Duration CLOCK_SKEW = Duration.ofHours(1);

    /** No transfer record predates this; earlier times (or ones PostgreSQL cannot hold) are mistakes. */
    static final OffsetDateTime EARLIEST = OffsetDateTime.parse("1970-01-01T00:00:00Z");

    /** The latest completion time a record may carry when checked now (a batch computes it once). */
    public OffsetDateTime latestAllowed() {
        return OffsetDateTime.now().plus(CLOCK_SKEW);
    }

    public List<Problem.FieldError> check(TransferRecord r, OffsetDateTime latestAllowed) {
        List<Problem.FieldError> errors = new ArrayList<>();
        // Field rules by hand: this runs for every record at tens of thousands per second, where reflective
        // Bean Validation costs more than the insert. The annotations on TransferRecord document the same rules.
        text(errors, "id", r.id(), true, 200);
        text(errors, "job_id", r.job_id(), false, 100);
        text(errors, "vo", r.vo(), true, 100);
        text(errors, "activity", r.activity(), false, 100);
        name(errors, "source_se", r.source_se(), true);
        name(errors, "dest_se", r.dest_se(), true);
        name(errors, "source_site", r.source_site(), false);
        name(errors, "dest_site", r.dest_site(), false);
        text(errors, "source_url", r.source_url(), false, 4096);
        text(errors, "dest_url", r.dest_url(), false, 4096);
        text(errors, "error_code", r.error_code(), false, 40);
        if (r.error_message() != null && r.error_message().length() <= 4000 && Names.hasControlBesidesLineBreaks(r.error_message())) {
            errors.add(new Problem.FieldError("error_message", "must not contain control characters other than tabs and line breaks"));
        } else if (r.error_message() != null && r.error_message().length() > 4000) {
            errors.add(new Problem.FieldError("error_message", "size must be between 0 and 4000"));
        }
        if (r.file_id() != null && r.file_id() < 0) {
            errors.add(new Problem.FieldError("file_id", "must be greater than or equal to 0"));
        }
        if (r.attempt() != null && (r.attempt() < 1 || r.attempt() > 1000)) {
            errors.add(new Problem.FieldError("attempt", "must be between 1 and 1000"));
        }
        if (r.filesize() != null && (r.filesize() < 0 || r.filesize() > TransferRecord.MAX_BYTES)) {
            errors.add(new Problem.FieldError("filesize", "must be between 0 and " + TransferRecord.MAX_BYTES + " (1 PB)"));
        }
        if (r.bytes_transferred() == null) {
            errors.add(new Problem.FieldError("bytes_transferred", "must not be null"));
        } else if (r.bytes_transferred() < 0 || r.bytes_transferred() > TransferRecord.MAX_BYTES) {
            errors.add(new Problem.FieldError("bytes_transferred", "must be between 0 and " + TransferRecord.MAX_BYTES + " (1 PB)"));
        }
        if (r.streams() != null && (r.streams() < 1 || r.streams() > 64)) {
            errors.add(new Problem.FieldError("streams", "must be between 1 and 64"));
        }
        if (r.throughput_bytes_per_s() != null && !(r.throughput_bytes_per_s() >= 0)) {
            errors.add(new Problem.FieldError("throughput_bytes_per_s", "must be greater than or equal to 0"));
        }
        if (r.outcome() == null || !(r.outcome().equals("FINISHED") || r.outcome().equals("FAILED") || r.outcome().equals("CANCELED"))) {
            errors.add(new Problem.FieldError("outcome", "must be FINISHED, FAILED or CANCELED"));
        }
        if (r.error_phase() != null && !java.util.Set.of("prepare", "transfer", "checksum", "queue").contains(r.error_phase())) {
            errors.add(new Problem.FieldError("error_phase", "must be prepare, transfer, checksum or queue"));
        }
        early(errors, "submitted_at", r.submitted_at());
        early(errors, "prepare_started_at", r.prepare_started_at());
        early(errors, "prepare_ended_at", r.prepare_ended_at());
        early(errors, "transfer_started_at", r.transfer_started_at());
        early(errors, "transfer_ended_at", r.transfer_ended_at());
        early(errors, "checksum_started_at", r.checksum_started_at());
        early(errors, "checksum_ended_at", r.checksum_ended_at());
        phase(errors, "prepare", r.prepare_started_at(), r.prepare_ended_at());
        phase(errors, "transfer", r.transfer_started_at(), r.transfer_ended_at());
        phase(errors, "checksum", r.checksum_started_at(), r.checksum_ended_at());
        if (r.submitted_at() != null && r.transfer_started_at() != null && r.transfer_started_at().isBefore(r.submitted_at())) {
            errors.add(new Problem.FieldError("transfer_started_at", "is before submitted_at"));
        }
        OffsetDateTime completed = r.completedAt();
        if (completed == null) {
            errors.add(new Problem.FieldError("transfer_ended_at", "a record needs at least one timestamp"));
        } else if (completed.isAfter(latestAllowed)) {
            errors.add(new Problem.FieldError("transfer_ended_at", "lies in the future"));
        }
        if (r.filesize() != null && r.bytes_transferred() != null && r.bytes_transferred() > r.filesize()) {
            errors.add(new Problem.FieldError("bytes_transferred", "exceeds filesize"));
        }
        return errors;
    }

    private static void text(List<Problem.FieldError> errors, String field, String value, boolean required, int max) {
        if (value == null || value.isBlank()) {
            if (required) {
                errors.add(new Problem.FieldError(field, "must not be blank"));
            }
        } else if (value.length() > max) {
            errors.add(new Problem.FieldError(field, "size must be between 0 and " + max));
        } else if (Names.hasControl(value)) {
            errors.add(new Problem.FieldError(field, "must not contain control characters"));
        }
    }

    /** SE and site names: shown on the public dashboard and used as rollup keys. */
    private static void name(List<Problem.FieldError> errors, String field, String value, boolean required) {
        if (value == null || value.isEmpty()) {
            if (required) {
                errors.add(new Problem.FieldError(field, "must not be blank"));
            }
        } else if (!Names.isName(value)) {
            errors.add(new Problem.FieldError(field, Names.RULE));
        }
    }

    private static void early(List<Problem.FieldError> errors, String field, OffsetDateTime t) {
        if (t != null && t.isBefore(EARLIEST)) {
            errors.add(new Problem.FieldError(field, "lies before 1970"));
        }
    }

    private static void phase(List<Problem.FieldError> errors, String name, OffsetDateTime start, OffsetDateTime end) {
        if (start != null && end != null && end.isBefore(start)) {
            errors.add(new Problem.FieldError(name + "_ended_at", "is before " + name + "_started_at (negative duration)"));
        } else if (start == null && end != null) {
            errors.add(new Problem.FieldError(name + "_started_at", "is missing while " + name + "_ended_at is set"));
        }
    }
}
