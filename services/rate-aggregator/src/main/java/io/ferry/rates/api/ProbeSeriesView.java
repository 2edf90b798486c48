package io.ferry.rates.api;

import java.util.List;

public record ProbeSeriesView(String source, String destination, String window, List<ProbeRun> runs) {
}
