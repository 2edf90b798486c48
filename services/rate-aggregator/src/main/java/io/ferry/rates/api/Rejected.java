package io.ferry.rates.api;

import io.ferry.problem.Problem;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.List;

public record Rejected(int index, @Schema(nullable = true) String id, List<Problem.FieldError> errors) {
}
