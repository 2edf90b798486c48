package io.ferry.dev;

import java.time.Duration;
import java.util.stream.Stream;

/** CPU time of local processes, for benchmarks that tell what each part of a run cost. */
public final class ProcessCpu {

    private ProcessCpu() {
    }

    /** CPU time a process and its descendants (nginx's workers, PostgreSQL's backends) have used so far; 0 when unknown. */
    public static long millis(ProcessHandle root) {
        if (root == null) {
            return 0;
        }
        return Stream.concat(Stream.of(root), root.descendants())
                .mapToLong(h -> h.info().totalCpuDuration().map(Duration::toMillis).orElse(0L)).sum();
    }
}
