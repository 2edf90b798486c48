package io.ferry.rates.api;

import java.util.List;

public record SiteTable(String window, long totalFiles, List<SiteRow> sites) {
}
