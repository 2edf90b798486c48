package io.ferry.problem;

import io.quarkus.runtime.annotations.RegisterForReflection;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.Components;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.responses.APIResponses;

import java.util.List;

/**
 * Documents what every operation of every service may answer besides its own responses: an RFC 7807 problem
 * ({@link Problem}, {@code application/problem+json}) for a refused request, a missing or refused credential, an
 * unknown object, a method the path does not take, an oversized body or an unavailable database. As the OpenAPI
 * document's {@code default} response of each operation, so a client generated from the document, and a checker such
 * as schemathesis, knows the body of any status the operation does not list. Registered by each service with
 * {@code mp.openapi.filter=io.ferry.problem.ProblemResponses}.
 */
// in case the document is filtered again at run time: a native executable then instantiates it by reflection
@RegisterForReflection
public class ProblemResponses implements OASFilter {

    static final String SCHEMA = "Problem";

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        if (openAPI.getComponents() == null) {
            openAPI.setComponents(OASFactory.createComponents());
        }
        Components components = openAPI.getComponents();
        components.addSchema(SCHEMA, problemSchema());
        ControlCharacterParameters.document(openAPI);
        if (openAPI.getPaths() == null || openAPI.getPaths().getPathItems() == null) {
            return;
        }
        Schema ref = OASFactory.createSchema().ref("#/components/schemas/" + SCHEMA);
        for (PathItem path : openAPI.getPaths().getPathItems().values()) {
            if (path.getOperations() == null) {
                continue;
            }
            for (Operation operation : path.getOperations().values()) {
                if (operation.getResponses() == null) {
                    operation.setResponses(OASFactory.createAPIResponses());
                }
                APIResponses responses = operation.getResponses();
                if (responses.getDefaultValue() == null) {
                    responses.setDefaultValue(OASFactory.createAPIResponse()
                            .description("An RFC 7807 problem: the request refused (its code and, for a bad body, each field), "
                                    + "the credential missing or refused, the object unknown, or the service unable to answer now")
                            .content(OASFactory.createContent().addMediaType(Problem.MEDIA_TYPE, OASFactory.createMediaType().schema(ref))));
                }
            }
        }
    }

    private static Schema problemSchema() {
        Schema text = OASFactory.createSchema().addType(Schema.SchemaType.STRING);
        Schema fieldError = OASFactory.createSchema().addType(Schema.SchemaType.OBJECT)
                .addProperty("field", text).addProperty("message", text).required(List.of("field", "message"));
        return OASFactory.createSchema().addType(Schema.SchemaType.OBJECT)
                .description("RFC 7807 problem details; code is Ferry's stable name for the problem")
                .addProperty("type", text)
                .addProperty("title", text)
                .addProperty("status", OASFactory.createSchema().addType(Schema.SchemaType.INTEGER).minimum(java.math.BigDecimal.valueOf(400))
                        .maximum(java.math.BigDecimal.valueOf(599)))
                .addProperty("detail", text)
                .addProperty("instance", text)
                .addProperty("code", text)
                .addProperty("errors", OASFactory.createSchema().addType(Schema.SchemaType.ARRAY).items(fieldError))
                .addProperty("context", OASFactory.createSchema().addType(Schema.SchemaType.OBJECT))
                .required(List.of("type", "title", "status", "code"));
    }
}
