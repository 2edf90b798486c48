package io.ferry.profiles.api;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.time.OffsetDateTime;
import java.util.List;

/** A change's impact on the links of a host or a site (the other is null); message says why none is known. */
public record Impact(@Schema(nullable = true) String host, @Schema(nullable = true) String site, String change,
                     OffsetDateTime at, String window, boolean available, @Schema(nullable = true) String message,
                     List<LinkImpact> links) {
}
