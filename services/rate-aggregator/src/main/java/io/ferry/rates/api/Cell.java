package io.ferry.rates.api;

public record Cell(String from, String to, double seconds, double overheadSeconds, double throughput, Basis basis) {
}
