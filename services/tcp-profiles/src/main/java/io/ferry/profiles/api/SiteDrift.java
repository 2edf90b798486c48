package io.ferry.profiles.api;

import java.util.List;
import java.util.Map;

public record SiteDrift(String site, Map<Drift.Status, Long> counts, List<Drift> hosts) {
}
