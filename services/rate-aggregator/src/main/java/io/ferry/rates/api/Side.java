package io.ferry.rates.api;

import java.time.OffsetDateTime;

public record Side(int n, Double average, Double peak, OffsetDateTime from, OffsetDateTime to) {
}
