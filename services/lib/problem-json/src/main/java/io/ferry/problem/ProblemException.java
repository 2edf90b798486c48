package io.ferry.problem;

import java.util.List;
import java.util.Map;

/** Thrown by service code to answer with a specific problem; the REST layer renders it unchanged. */
public class ProblemException extends RuntimeException {

    private final transient Problem problem;

    public ProblemException(Problem problem) {
        super(problem.detail(), null, false, false);
        this.problem = problem;
    }

    public Problem problem() {
        return problem;
    }

    public static ProblemException badRequest(String code, String detail, List<Problem.FieldError> errors) {
        return new ProblemException(Problem.of(400, code, detail).withErrors(errors));
    }

    public static ProblemException badRequest(String field, String message) {
        return badRequest("INVALID_INPUT", field + ": " + message, List.of(new Problem.FieldError(field, message)));
    }

    public static ProblemException notFound(String what) {
        return new ProblemException(Problem.of(404, "NOT_FOUND", what + " not found"));
    }

    public static ProblemException conflict(String code, String detail) {
        return new ProblemException(Problem.of(409, code, detail));
    }

    public static ProblemException unprocessable(String code, String detail, Map<String, Object> context) {
        return new ProblemException(Problem.of(422, code, detail).withContext(context));
    }

    public static ProblemException forbidden(String detail) {
        return new ProblemException(Problem.of(403, "FORBIDDEN", detail));
    }
}
