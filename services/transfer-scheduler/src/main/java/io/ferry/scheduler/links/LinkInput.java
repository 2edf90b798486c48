package io.ferry.scheduler.links;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Pattern;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A link's settings with FTS3's field names; omitted streams mean "ask tcp-profiles". */
public record LinkInput(@Min(1) @Max(1000) Integer min_active, @Min(1) @Max(1000) Integer max_active,
                        @Min(1) @Max(16) Integer nostreams,
                        // the enumeration for the document: a JSON Schema pattern matches anywhere in the value
                        @Schema(enumeration = {"adaptive", "fixed"}) @Pattern(regexp = "adaptive|fixed", message = "must be adaptive or fixed") String optimizer_mode) {

    LinkService.Settings settings() {
        return new LinkService.Settings(min_active, max_active, nostreams, optimizer_mode);
    }
}
