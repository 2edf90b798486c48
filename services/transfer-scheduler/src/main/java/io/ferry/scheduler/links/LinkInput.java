package io.ferry.scheduler.links;

import com.fasterxml.jackson.databind.JsonNode;
import io.ferry.problem.Problem;
import io.ferry.problem.ProblemException;
import io.ferry.scheduler.submission.MaxRate;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Pattern;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.ArrayList;
import java.util.List;

/**
 * A link's settings with FTS3's field names; omitted streams mean "ask tcp-profiles", an omitted {@code max_rate}
 * means no rate cap (bytes per second, or a number with a unit: see {@link MaxRate}).
 */
public record LinkInput(@Min(1) @Max(1000) Integer min_active, @Min(1) @Max(1000) Integer max_active,
                        @Min(1) @Max(16) Integer nostreams,
                        // the enumeration for the document: a JSON Schema pattern matches anywhere in the value
                        @Schema(enumeration = {"adaptive", "fixed"}) @Pattern(regexp = "adaptive|fixed", message = "must be adaptive or fixed") String optimizer_mode,
                        // JSON as given, which MaxRate reads: a String would take a number or a boolean as its text (see LinkMaxRateSchema)
                        JsonNode max_rate) {

    LinkService.Settings settings() {
        List<Problem.FieldError> errors = new ArrayList<>();
        Long rate = MaxRate.read(max_rate, "max_rate", errors);
        if (!errors.isEmpty()) {
            throw ProblemException.badRequest("max_rate", errors.get(0).message());
        }
        return new LinkService.Settings(min_active, max_active, nostreams, optimizer_mode, rate);
    }
}
