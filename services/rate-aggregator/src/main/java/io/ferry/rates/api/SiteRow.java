package io.ferry.rates.api;

public record SiteRow(String site, long filesIn, long filesOut, long bytesIn, long bytesOut, long failedIn, long failedOut) {
}
