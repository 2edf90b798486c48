package io.ferry.rates.api;

import io.ferry.rates.model.Totals;
import java.time.OffsetDateTime;
import java.util.List;

public record LinkTable(String by, String window, OffsetDateTime from, OffsetDateTime to, List<Totals> rows) {
}
