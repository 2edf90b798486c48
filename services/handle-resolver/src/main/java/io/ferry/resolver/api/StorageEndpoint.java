package io.ferry.resolver.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.Map;

/** An SE as transfer-scheduler's {@code /endpoints} describes it; the fields the resolver needs. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record StorageEndpoint(String name, String site, Map<String, String> baseUrls, boolean needsPrepare,
                              boolean thirdPartyCopy) {
}
