package io.ferry.rates.api;

public record Basis(String source, long samples, String window, String note) {
}
