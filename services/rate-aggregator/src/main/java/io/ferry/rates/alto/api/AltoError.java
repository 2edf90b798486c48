package io.ferry.rates.alto.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** RFC 7285 §8.5.2: the error document, in place of RFC 7807's problem on the ALTO paths. */
@Schema(name = "AltoError")
public record AltoError(Meta meta) {

    public static final String E_SYNTAX = "E_SYNTAX";
    public static final String E_MISSING_FIELD = "E_MISSING_FIELD";
    public static final String E_INVALID_FIELD_TYPE = "E_INVALID_FIELD_TYPE";
    public static final String E_INVALID_FIELD_VALUE = "E_INVALID_FIELD_VALUE";

    /** {@code field} in the RFC's path notation ({@code cost-type/cost-metric}); {@code value} the offending one. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "AltoErrorMeta")
    public record Meta(String code, String field, String value, @JsonProperty("syntax-error") String syntaxError) {
    }
}
