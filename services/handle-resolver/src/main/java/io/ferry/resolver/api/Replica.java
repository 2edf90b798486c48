package io.ferry.resolver.api;

import org.eclipse.microprofile.openapi.annotations.media.Schema;
import java.time.OffsetDateTime;

public record Replica(String se, @Schema(nullable = true) String site, String path, @Schema(nullable = true) Long size,
                      @Schema(nullable = true) String adler32, String state, OffsetDateTime createdAt,
                      @Schema(nullable = true, description = "null when the SE has no base URL for the protocol") String turl,
                      @Schema(nullable = true) Double expectedSeconds, @Schema(nullable = true) Integer distance) {
}
