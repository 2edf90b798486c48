package io.ferry.resolver.api;

import java.time.OffsetDateTime;

public record Replica(String se, String site, String path, Long size, String adler32, String state, OffsetDateTime createdAt,
                      String turl, Double expectedSeconds, Integer distance) {
}
