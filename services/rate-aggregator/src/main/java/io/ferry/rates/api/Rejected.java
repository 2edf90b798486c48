package io.ferry.rates.api;

import io.ferry.problem.Problem;
import java.util.List;

public record Rejected(int index, String id, List<Problem.FieldError> errors) {
}
