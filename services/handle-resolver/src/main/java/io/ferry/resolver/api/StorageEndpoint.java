package io.ferry.resolver.api;

import org.eclipse.microprofile.openapi.annotations.media.Schema;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.Map;

/** An SE as transfer-scheduler's {@code /endpoints} describes it; the fields the resolver needs. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record StorageEndpoint(String name, @Schema(nullable = true) String site, @Schema(nullable = true) Map<String, String> baseUrls, boolean needsPrepare,
                              boolean thirdPartyCopy) {
}
