package io.ferry.rates.api;

import java.time.OffsetDateTime;

public record Backlog(OffsetDateTime from, OffsetDateTime to, double maxAvgQueueSeconds) {
}
