package io.ferry.cli.output;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.function.Function;

/**
 * One column of a table: its header, the raw value scripts get in tsv, and how people see it in a table (human
 * units, say).
 */
public record Column(String header, Function<JsonNode, String> raw, Function<JsonNode, String> human) {

    /** A field shown as it is. */
    public static Column field(String header, String field) {
        Function<JsonNode, String> f = row -> text(row.path(field));
        return new Column(header, f, f);
    }

    /** A field of bytes, in KiB/MiB/GiB for people. */
    public static Column bytes(String header, String field) {
        return new Column(header, row -> text(row.path(field)),
                row -> row.path(field).isNumber() ? Units.bytes(row.path(field).asLong()) : "");
    }

    /** A field of bytes per second, in MB/s for people. */
    public static Column rate(String header, String field) {
        return new Column(header, row -> text(row.path(field)),
                row -> row.path(field).isNumber() ? Units.rate(row.path(field).asDouble()) : "");
    }

    public static String text(JsonNode v) {
        if (v == null || v.isMissingNode() || v.isNull()) {
            return "";
        }
        if (v.isFloatingPointNumber()) {
            return v.decimalValue().stripTrailingZeros().toPlainString(); // 52400000, not 5.24E7
        }
        return v.isValueNode() ? v.asText() : v.toString();
    }
}
