package io.ferry.rates.api;

import java.util.List;

public record IngestResult(int received, int accepted, int duplicates, List<Rejected> rejected) {
}
