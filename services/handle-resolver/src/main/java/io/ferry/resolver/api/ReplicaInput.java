package io.ferry.resolver.api;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A replica of a data object to record: its SE, path below the SE's base URL, size, checksum and state. */
public record ReplicaInput(@Schema(required = true, pattern = NameInput.HANDLE) String handle,
                           @Schema(required = true, pattern = "^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$") String se,
                           @Schema(required = true, maxLength = 2048, pattern = "^(?!.*://)\\s*\\S.*$", description = "Below the SE's base URL, without a scheme") String path,
                           @Schema(minimum = "0") Long size,
                           @Schema(pattern = "^[0-9a-fA-F]{8}$") String adler32,
                           @Schema(enumeration = {"AVAILABLE", "COPYING", "UNAVAILABLE", "LOST"}, defaultValue = "AVAILABLE") String state) {
}
