package io.ferry.rates.api;

import io.ferry.rates.model.Totals;
import java.util.List;

public record RateSeriesView(String by, String source, String destination, String window, String bin, double averageRate,
                     double peakBinRate, List<Bin> bins, List<Spike> spikes, List<Backlog> backlogs, List<Totals> topLinks) {
}
