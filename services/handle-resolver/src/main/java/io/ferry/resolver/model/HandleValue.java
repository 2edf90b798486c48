package io.ferry.resolver.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * One typed value of a handle, in Handle.net's JSON shape: {@code ttl} is a number (seconds, relative) or an
 * ISO-8601 string (absolute expiry); {@code data.format} is string, base64, hex, admin or vlist; {@code permissions}
 * is Handle.net's four value flags ({@link ValuePermissions}, {@value ValuePermissions#DEFAULT} when not given).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record HandleValue(@Schema(required = true, minimum = "1", maximum = "2147483647") Integer index,
                          @Schema(required = true, minLength = 1, maxLength = 255) String type,
                          @Schema(required = true, ref = "ValueData") Data data,
                          @Schema(ref = "ValueTtl") JsonNode ttl,
                          String timestamp,
                          @Schema(pattern = "^[01]{4}$") String permissions) {

    /** As the OpenAPI document shows it: the ValueData schema of META-INF/openapi.yaml. */
    public record Data(String format, JsonNode value) {
    }

    public static final String HS_ADMIN = "HS_ADMIN";
    public static final String HS_VLIST = "HS_VLIST";
    public static final String HS_SECKEY = "HS_SECKEY";
    public static final String HS_ALIAS = "HS_ALIAS";
    public static final String URL = "URL";
    public static final String LOC = "10320/loc";

    /** This value with its permissions spelled out (the default when it gave none), as it is stored. */
    public HandleValue withDefaultPermissions() {
        return permissions != null ? this : new HandleValue(index, type, data, ttl, timestamp, ValuePermissions.DEFAULT);
    }
}
