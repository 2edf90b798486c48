package io.ferry.resolver.api;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A logical name (LFN, GUID or scope:name) to bind to a handle. */
public record NameInput(@Schema(required = true, minLength = 1, maxLength = 1024, pattern = NAME) String name,
                        @Schema(required = true, pattern = HANDLE) String handle) {

    /** An LFN (/path), a GUID or scope:name (LogicalNames), without control characters. */
    static final String NAME = "^(/[^\\u0000-\\u001F\\u007F]*|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
            + "|[A-Za-z0-9_.-]+:[^/\\s\\u0000-\\u001F\\u007F][^\\s\\u0000-\\u001F\\u007F]*)$";
    static final String HANDLE = "^[0-9A-Za-z]+(\\.[0-9A-Za-z]+)*/[^\\u0000-\\u001F\\u007F]+$";
}
