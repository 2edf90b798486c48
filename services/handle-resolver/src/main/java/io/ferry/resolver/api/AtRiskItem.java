package io.ferry.resolver.api;

import java.util.List;

public record AtRiskItem(String handle, List<String> names, long availableReplicas, long bytes) {
}
