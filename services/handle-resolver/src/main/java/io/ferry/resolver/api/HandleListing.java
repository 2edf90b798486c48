package io.ferry.resolver.api;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;

/**
 * A listing of a prefix's handles in CNRI's shape: the {@code prefix} as asked, {@code totalCount} as a string (as
 * CNRI writes it), {@code page} and {@code pageSize} only when both were asked for.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record HandleListing(int responseCode, String prefix, String totalCount, Integer page, Integer pageSize, List<String> handles) {
}
