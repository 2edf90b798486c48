package io.ferry.it.sweep;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One operation of a service's OpenAPI document: what the sweep needs to build requests for it.
 * {@code bodySchema} is null when the operation takes no body; schemas keep their {@code $ref}s (see {@link JsonSchemas}).
 */
public record ApiOperation(String method, String path, List<Parameter> pathParameters, List<Parameter> queryParameters,
                           JsonNode bodySchema, List<String> bodyMediaTypes, boolean secured) {

    /** A path or query parameter and its schema. */
    public record Parameter(String name, JsonNode schema, boolean required) {
    }

    public String describe() {
        return method + " " + path;
    }

    public boolean takesBody() {
        return bodySchema != null;
    }

    /** Every operation of the document, in document order. */
    public static List<ApiOperation> all(JsonNode openApi) {
        List<ApiOperation> operations = new ArrayList<>();
        JsonSchemas schemas = new JsonSchemas(openApi);
        for (Iterator<Map.Entry<String, JsonNode>> paths = openApi.path("paths").fields(); paths.hasNext(); ) {
            Map.Entry<String, JsonNode> path = paths.next();
            for (Iterator<Map.Entry<String, JsonNode>> ops = path.getValue().fields(); ops.hasNext(); ) {
                Map.Entry<String, JsonNode> op = ops.next();
                String method = op.getKey().toUpperCase(Locale.ROOT);
                if (!List.of("GET", "POST", "PUT", "PATCH", "DELETE").contains(method)) {
                    continue;
                }
                List<Parameter> inPath = new ArrayList<>();
                List<Parameter> inQuery = new ArrayList<>();
                List<JsonNode> declared = new ArrayList<>();
                path.getValue().path("parameters").forEach(declared::add);
                op.getValue().path("parameters").forEach(declared::add);
                for (JsonNode p : declared) {
                    JsonNode param = schemas.resolve(p);
                    Parameter parameter = new Parameter(param.path("name").asText(), param.path("schema"), param.path("required").asBoolean());
                    switch (param.path("in").asText()) {
                        case "path" -> inPath.add(parameter);
                        case "query" -> inQuery.add(parameter);
                        default -> { }
                    }
                }
                JsonNode body = schemas.resolve(op.getValue().path("requestBody"));
                JsonNode bodySchema = null;
                List<String> mediaTypes = new ArrayList<>();
                for (Iterator<Map.Entry<String, JsonNode>> content = body.path("content").fields(); content.hasNext(); ) {
                    Map.Entry<String, JsonNode> c = content.next();
                    mediaTypes.add(c.getKey());
                    if (bodySchema == null) {
                        bodySchema = c.getValue().path("schema");
                    }
                }
                boolean secured = !op.getValue().path("security").isEmpty() || op.getValue().path("responses").has("401");
                operations.add(new ApiOperation(method, path.getKey(), List.copyOf(inPath), List.copyOf(inQuery), bodySchema,
                        List.copyOf(mediaTypes), secured));
            }
        }
        return operations;
    }
}
