package io.ferry.scheduler.links;

import io.ferry.scheduler.submission.MaxRate;
import io.quarkus.smallrye.openapi.OpenApiFilter;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.media.Schema.SchemaType;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * {@link LinkInput}'s {@code max_rate} in the OpenAPI document, as {@link MaxRate} reads it: a whole number of bytes
 * per second, a string with a unit, or null. The field is JSON read as given, whose Java type tells SmallRye nothing.
 */
@OpenApiFilter(OpenApiFilter.RunStage.BUILD)
public class LinkMaxRateSchema implements OASFilter {

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        Map<String, Schema> schemas = openAPI.getComponents() == null ? null : openAPI.getComponents().getSchemas();
        Schema input = schemas == null ? null : schemas.get("LinkInput");
        if (input != null && input.getProperties() != null && input.getProperties().containsKey("max_rate")) {
            input.addProperty("max_rate", maxRate());
        }
    }

    static Schema maxRate() {
        return OASFactory.createSchema()
                .oneOf(List.of(
                        OASFactory.createSchema().addType(SchemaType.INTEGER).format("int64")
                                .minimum(BigDecimal.valueOf(MaxRate.MIN)).maximum(BigDecimal.valueOf(MaxRate.MAX)),
                        OASFactory.createSchema().addType(SchemaType.STRING).pattern(MaxRate.PATTERN),
                        OASFactory.createSchema().addType(SchemaType.NULL)))
                .description(MaxRate.expected() + "; null or absent: no cap")
                .examples(List.of("500MB/s"));
    }
}
