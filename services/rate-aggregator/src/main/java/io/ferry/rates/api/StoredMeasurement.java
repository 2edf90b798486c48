package io.ferry.rates.api;

public record StoredMeasurement(long id, Measurement measurement) {
}
