package io.ferry.rates.alto;

import io.ferry.rates.alto.api.CostType;
import io.ferry.rates.api.Cell;

import java.util.function.ToDoubleFunction;

/** The cost metrics the ALTO face serves, each numerical, each read from a priced cell of the cost matrix. */
public enum AltoMetric {

    /** Expected seconds for one file of {@code ferry.rates.alto.filesize}: overhead + size / throughput. Lower is better. */
    ROUTINGCOST("routingcost", "num-routingcost", "ferry-routingcost-map", "routingcost",
            "expected seconds to move one file of the configured reference size (default 1 GB): per-file overhead + size / throughput",
            Cell::seconds),

    /** The link's throughput in bytes/s (transfer-phase bytes / seconds, or a measurement / 8). Higher is better. */
    THROUGHPUT("priv:ferry-throughput", "num-throughput", "ferry-throughput-map", "throughput",
            "bytes per second while files move (bytes / transfer seconds of the link's finished files, else a measured rate); higher is better",
            Cell::throughput);

    public static final String MODE = "numerical";

    public final String metric;
    public final String typeName;
    public final String resourceId;
    public final String path;
    final String description;
    final ToDoubleFunction<Cell> value;

    AltoMetric(String metric, String typeName, String resourceId, String path, String description, ToDoubleFunction<Cell> value) {
        this.metric = metric;
        this.typeName = typeName;
        this.resourceId = resourceId;
        this.path = path;
        this.description = description;
        this.value = value;
    }

    public CostType costType() {
        return new CostType(MODE, metric, null);
    }

    public CostType described() {
        return new CostType(MODE, metric, description);
    }

    static AltoMetric byMetric(String metric) {
        for (AltoMetric m : values()) {
            if (m.metric.equals(metric)) {
                return m;
            }
        }
        return null;
    }

    public static AltoMetric byPath(String path) {
        for (AltoMetric m : values()) {
            if (m.path.equals(path)) {
                return m;
            }
        }
        return null;
    }
}
