package io.ferry.rates.rest;

import io.ferry.rates.api.Syntax;
import io.ferry.rates.service.RecordIngest;
import io.quarkus.smallrye.openapi.OpenApiFilter;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.media.Schema.SchemaType;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.parameters.RequestBody;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the OpenAPI document cannot learn from the input records' annotations: the site names of a group; what
 * MeasurementService asks of a measurement beyond its Bean Validation (no unknown field, a time from 1970 to now, at
 * least one of throughput, RTT and loss) and of a batch (up to 20,000 measurements, one of them valid); what
 * RecordValidator asks of a transfer record (no unknown field, at least one timestamp) and of a batch (up to 20,000
 * records, none or one of them valid).
 */
@OpenApiFilter(OpenApiFilter.RunStage.BUILD)
public class InputSchemas implements OASFilter {

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        if (openAPI.getComponents() == null || openAPI.getComponents().getSchemas() == null) {
            return;
        }
        Map<String, Schema> schemas = openAPI.getComponents().getSchemas();
        Schema group = schemas.get("GroupInput");
        if (group != null && group.getProperties() != null && group.getProperties().get("sites") != null) {
            group.getProperties().get("sites").minItems(1).maxItems(1000)
                    .items(OASFactory.createSchema().addType(SchemaType.STRING).pattern(Syntax.NAME));
        }
        Schema measurement = schemas.get("Measurement");
        if (measurement != null && measurement.getProperties() != null) {
            measurement.additionalPropertiesBoolean(false);
            measurement.addProperty("time", OASFactory.createSchema().addType(SchemaType.STRING).pattern(Syntax.PAST_TIME)
                    .description("when the test ran: from 1970 to now"));
            measurement.anyOf(List.of(present("throughput_bps"), present("rtt_ms"), present("loss")));
        }
        Schema record = schemas.get("TransferRecord");
        if (record != null) {
            record.additionalPropertiesBoolean(false);
            record.anyOf(TIMESTAMPS.stream().map(InputSchemas::present).toList());
        }
        // A batch is refused only when none of its items is valid; the others are rejected one by one (207).
        batch(openAPI, "/measurements").ifPresent(b -> b.getOneOf().stream()
                .filter(s -> s.getType() != null && s.getType().contains(SchemaType.ARRAY))
                .forEach(a -> a.contains(a.getItems()).items(null).maxItems(RecordIngest.MAX_ITEMS)
                        .description("at least one valid measurement; each invalid one is rejected on its own")));
        batch(openAPI, "/records").ifPresent(b -> b.anyOf(List.of(OASFactory.createSchema().maxItems(0),
                        OASFactory.createSchema().contains(b.getItems()))).items(null).maxItems(RecordIngest.MAX_ITEMS)
                .description("no record, or at least one valid one; each invalid one is rejected on its own"));
    }

    static final List<String> TIMESTAMPS = List.of("submitted_at", "prepare_started_at", "prepare_ended_at",
            "transfer_started_at", "transfer_ended_at", "checksum_started_at", "checksum_ended_at");

    /** The JSON body schema of {@code POST path}. */
    private static Optional<Schema> batch(OpenAPI openAPI, String path) {
        return Optional.ofNullable(openAPI.getPaths()).map(p -> p.getPathItem(path)).map(PathItem::getPOST)
                .map(Operation::getRequestBody).map(RequestBody::getContent).map(c -> c.getMediaType(MediaType.APPLICATION_JSON))
                .map(org.eclipse.microprofile.openapi.models.media.MediaType::getSchema);
    }

    /** {@code name} is given, and not null (which the services read as absent). */
    private static Schema present(String name) {
        Schema notNull = OASFactory.createSchema().not(OASFactory.createSchema().addType(SchemaType.NULL));
        return OASFactory.createSchema().addProperty(name, notNull)
                .required(List.of(name));
    }
}
