package io.ferry.profiles.api;

import java.time.OffsetDateTime;
import java.util.List;

public record Impact(String host, String site, String change, OffsetDateTime at, String window, boolean available,
                     String message, List<LinkImpact> links) {
}
