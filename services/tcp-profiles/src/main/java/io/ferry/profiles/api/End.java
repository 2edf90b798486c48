package io.ferry.profiles.api;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.List;

/** One end of a link, named by its storage element or its host (the other is null). */
public record End(@Schema(nullable = true) String storageElement, @Schema(nullable = true) String host,
                  List<String> hosts, int nicMbps, long windowBytes, String windowBasis) {
}
