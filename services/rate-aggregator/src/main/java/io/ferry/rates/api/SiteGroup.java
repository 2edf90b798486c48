package io.ferry.rates.api;

import java.util.List;

public record SiteGroup(String name, List<String> sites) {
}
