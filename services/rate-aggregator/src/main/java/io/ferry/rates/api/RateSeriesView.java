package io.ferry.rates.api;

import io.ferry.rates.model.Totals;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.List;

public record RateSeriesView(String by, @Schema(nullable = true) String source, @Schema(nullable = true) String destination,
                             String window, String bin, double averageRate,
                     double peakBinRate, List<Bin> bins, List<Spike> spikes, List<Backlog> backlogs, List<Totals> topLinks) {
}
