package io.ferry.resolver.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.ferry.resolver.model.HandleValue;

import java.util.List;
import java.util.Map;

/**
 * Handle.net's JSON response ({@code responseCode}, {@code handle}, {@code values} or {@code message}). Error
 * bodies also carry the RFC 7807 members ({@code type}, {@code title}, {@code status}, {@code detail}) so that
 * generic Ferry clients read them like every other error, while Handle.net clients see the shape they expect.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record HandleResponse(int responseCode, String handle, List<HandleValue> values, String message,
                             Map<String, Object> tombstone, Integer totalCount, Integer page, Integer pageSize,
                             List<String> handles, String type, String title, Integer status, String detail) {

    public static HandleResponse ok(String handle, List<HandleValue> values) {
        return new HandleResponse(1, handle, values, null, null, null, null, null, null, null, null, null, null);
    }

    public static HandleResponse error(int responseCode, int status, String handle, String message) {
        return new HandleResponse(responseCode, handle, null, message, null, null, null, null, null,
                "https://ferry.io/problems/handle-" + responseCode, message.contains(":") ? message.substring(0, message.indexOf(':')) : message,
                status, message);
    }
}
