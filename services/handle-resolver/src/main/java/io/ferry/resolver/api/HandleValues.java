package io.ferry.resolver.api;

import io.ferry.resolver.model.HandleValue;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.List;

/**
 * The body of a PUT to /api/handles as the OpenAPI document shows it. The service reads the body itself (HandleService),
 * as CNRI's servlet does, so it also takes a bare list of values or a single value.
 */
@Schema(description = "The values to write; a bare list of values, or one value, is taken too")
public record HandleValues(@Schema(description = "If given, the handle written") String handle,
                           @Schema(required = true) List<HandleValue> values) {
}
