package io.ferry.rates.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;

/** rate-aggregator settings ({@code ferry.rates.*}; environment {@code FERRY_RATES_*}). */
@ConfigMapping(prefix = "ferry.rates")
public interface RatesConfig {

    /** How long raw transfer records are kept; rollups outlive them. */
    @WithDefault("30d")
    Duration rawRetention();

    /** How long 5-minute rollups are kept (hourly and daily ones are kept for good). */
    @WithDefault("35d")
    Duration fineRollupRetention();

    /** transfer-scheduler's web monitor, which the dashboard links to (and which links back here). */
    @WithDefault("http://localhost:8081/monitor/")
    String monitorUrl();

    Cost cost();

    Reads reads();

    Alto alto();

    /** The ALTO (RFC 7285) maps of the cost matrix (docs/alto.md). */
    interface Alto {
        /** The file size whose expected transfer seconds are the {@code routingcost} of a link. */
        @WithDefault("1GB")
        String filesize();

        /** The largest filtered-cost-map request body taken; a larger one is 413. */
        @WithDefault("65536")
        int maxRequestBytes();
    }

    /** Bounds of the anonymous reads, so that none of them costs what the whole history would. */
    interface Reads {
        /** The longest window or time range a read may ask for. */
        @WithDefault("366d")
        Duration maxWindow();

        /** Raw records one answer reads at most (/regression, /compare); a cut answer says {@code truncated: true}. */
        @WithDefault("100000")
        int maxRows();

        /** Links one {@code /compare?se=|site=} reads at most. */
        @WithDefault("1000")
        int maxLinks();

        /** Peers {@code /measurements/latest} answers at most. */
        @WithDefault("1000")
        int maxPeers();
    }

    interface Cost {
        /** Transfers needed on a link before its own history prices it. */
        @WithDefault("3")
        int minSamples();

        /** How far back transfers and measurements are looked for. */
        @WithDefault("7d")
        String window();

        /** Per-file overhead (prepare, checksum) when no transfer on the link tells it; sites measured 20-47 s. */
        @WithDefault("30")
        double defaultOverheadSeconds();

        /** Throughput when neither transfers nor measurements know the link (bytes/s); sites saw ~7 MB/s averages. */
        @WithDefault("7000000")
        double defaultThroughput();
    }
}
