package io.ferry.rates.service;

import io.ferry.problem.Problem;
import io.ferry.rates.rest.TransferRecord;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.validation.Validator;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Checks a transfer record beyond its field syntax: phases must not run backwards, times must be plausible. */
@ApplicationScoped
public class RecordValidator {

    private static final Duration CLOCK_SKEW = Duration.ofHours(1);

    @Inject
    Validator validator;

    public List<Problem.FieldError> check(TransferRecord r) {
        List<Problem.FieldError> errors = new ArrayList<>();
        validator.validate(r).stream()
                .sorted(Comparator.comparing(v -> v.getPropertyPath().toString()))
                .forEach(v -> errors.add(new Problem.FieldError(v.getPropertyPath().toString(), v.getMessage())));
        phase(errors, "prepare", r.prepare_started_at(), r.prepare_ended_at());
        phase(errors, "transfer", r.transfer_started_at(), r.transfer_ended_at());
        phase(errors, "checksum", r.checksum_started_at(), r.checksum_ended_at());
        if (r.submitted_at() != null && r.transfer_started_at() != null && r.transfer_started_at().isBefore(r.submitted_at())) {
            errors.add(new Problem.FieldError("transfer_started_at", "is before submitted_at"));
        }
        OffsetDateTime completed = r.completedAt();
        if (completed == null) {
            errors.add(new Problem.FieldError("transfer_ended_at", "a record needs at least one timestamp"));
        } else if (completed.isAfter(OffsetDateTime.now().plus(CLOCK_SKEW))) {
            errors.add(new Problem.FieldError("transfer_ended_at", "lies in the future"));
        }
        if (r.filesize() != null && r.bytes_transferred() != null && r.bytes_transferred() > r.filesize()) {
            errors.add(new Problem.FieldError("bytes_transferred", "exceeds filesize"));
        }
        return errors;
    }

    private static void phase(List<Problem.FieldError> errors, String name, OffsetDateTime start, OffsetDateTime end) {
        if (start != null && end != null && end.isBefore(start)) {
            errors.add(new Problem.FieldError(name + "_ended_at", "is before " + name + "_started_at (negative duration)"));
        } else if (start == null && end != null) {
            errors.add(new Problem.FieldError(name + "_started_at", "is missing while " + name + "_ended_at is set"));
        }
    }
}
