package io.ferry.rates.alto.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import jakarta.validation.constraints.Pattern;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.List;

/**
 * The filtered cost map request (RFC 7285 §11.3.2.3) as the OpenAPI document states it. The service reads the body
 * field by field (io.ferry.rates.alto.CostFilter), to answer each fault with the code and field ALTO names.
 */
@Schema(name = "AltoCostMapFilter")
public record CostMapFilter(
        @JsonProperty("cost-type") @Schema(required = true) Type costType,
        @Schema(description = "all of them must hold: an operator and a cost in the metric's unit")
        List<@Pattern(regexp = CONSTRAINT) String> constraints,
        Pids pids) {

    /** What the parser takes: a JSON number whose value is finite (at most 15 digits before the point, a 2-digit exponent). */
    public static final String CONSTRAINT = "^(gt|lt|ge|le|eq) -?(0|[1-9][0-9]{0,14})(\\.[0-9]{1,15})?([eE][+-]?[0-9]{1,2})?$";

    /** RFC 7285 §10.1's PIDName. */
    public static final String PID = "^[A-Za-z0-9:@_.-]{1,64}$";

    @Schema(name = "AltoRequestedCostType")
    public record Type(@JsonProperty("cost-mode") @Schema(required = true, enumeration = {"numerical"}) String costMode,
                       @JsonProperty("cost-metric") @Schema(required = true, enumeration = {"routingcost", "priv:ferry-throughput"})
                       String costMetric) {
    }

    /** Empty lists are every PID; PIDs the network map lacks are left out of the answer. */
    @Schema(name = "AltoPidFilter")
    public record Pids(
            @Schema(required = true) List<@Pattern(regexp = PID) String> srcs,
            @Schema(required = true) List<@Pattern(regexp = PID) String> dsts) {
    }
}
