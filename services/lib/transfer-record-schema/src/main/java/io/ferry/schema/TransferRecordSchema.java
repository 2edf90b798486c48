package io.ferry.schema;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * The transfer record that transfer-scheduler sends and rate-aggregator takes, as a JSON Schema
 * ({@value #RESOURCE} on the classpath), and a check of records against it for either side's tests.
 */
public final class TransferRecordSchema {

    /** Where the schema lies on the classpath. */
    public static final String RESOURCE = "/io/ferry/schema/transfer-record.schema.json";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonSchema SCHEMA = load();

    private TransferRecordSchema() {
    }

    /** The schema's text, for tools that read it themselves. */
    public static InputStream open() {
        return TransferRecordSchema.class.getResourceAsStream(RESOURCE);
    }

    /** What is wrong with one record by the schema; empty when it conforms. */
    public static List<String> problems(JsonNode record) {
        return SCHEMA.validate(record).stream().map(ValidationMessage::getMessage).sorted().toList();
    }

    /** As {@link #problems(JsonNode)}, of one record as JSON text. */
    public static List<String> problems(String record) {
        try {
            return problems(JSON.readTree(record));
        } catch (JsonProcessingException e) {
            return List.of("not JSON: " + e.getOriginalMessage());
        }
    }

    private static JsonSchema load() {
        try (InputStream in = open()) {
            return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(JSON.readTree(in));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }
}
