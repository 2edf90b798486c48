package io.ferry.scheduler.submission;

import com.fasterxml.jackson.databind.JsonNode;
import io.ferry.problem.Problem;

import java.util.List;

/**
 * A file's {@code scitag}, the SciTag flow label storage marks the copy's packets with (Rucio sends experiment id
 * {@code << 6 |} activity id). Taken as FTS3's REST server takes it: a JSON integer from 65 to 65535, or null for
 * none; a string, a fraction or a boolean is refused, as FTS3's {@code isinstance(scitag, int)} range check refuses
 * them (a boolean there is 0 or 1, out of range). FTS3 reads no job-level {@code params.scitag}: its Python client
 * copies one into each file before it sends the job, so a job that reaches the server carries it per file.
 */
public final class SciTag {

    public static final int MIN = 65;
    public static final int MAX = 65535;

    private SciTag() {
    }

    /** The label at {@code field}, null when absent or null; a wrong one is added to {@code errors}. */
    static Integer parse(JsonNode v, String field, List<Problem.FieldError> errors) {
        if (v == null || v.isNull() || v.isMissingNode()) {
            return null;
        }
        if (v.isIntegralNumber() && v.canConvertToInt() && v.asInt() >= MIN && v.asInt() <= MAX) {
            return v.asInt();
        }
        errors.add(new Problem.FieldError(field, "Invalid SciTag value: must be an integer in the [65, 65535] range"));
        return null;
    }
}
