package io.ferry.it;

import io.ferry.dev.FreePort;
import io.ferry.stack.LocalStack;
import io.ferry.stack.ServiceSpec;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;

/** Starts the four packaged services on free ports, on a fresh embedded PostgreSQL, for one test class. */
final class ItStacks {

    private ItStacks() {
    }

    /**
     * A stack whose state (database, keys, logs) lives in {@code target/<name>}, wiped first: tests create named
     * objects, so every run starts empty. {@code environment} is added to every service's environment.
     */
    static LocalStack start(String name, Map<String, String> environment) throws Exception {
        return start(name, environment, ServiceSpec.ALL);
    }

    /** As {@link #start(String, Map)}, with only {@code services} (each on a free port). */
    static LocalStack start(String name, Map<String, String> environment, java.util.List<ServiceSpec> services) throws Exception {
        Map<ServiceSpec, Integer> ports = new LinkedHashMap<>();
        services.forEach(s -> ports.put(s, FreePort.find()));
        Path state = Path.of("target", name).toAbsolutePath();
        if (Files.exists(state)) {
            try (var walk = Files.walk(state)) {
                walk.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
        LocalStack stack = new LocalStack(new LocalStack.Options(LocalStack.projectRoot(), state, ports, null, FreePort.find(), environment));
        try {
            stack.start(Duration.ofMinutes(4));
        } catch (Exception e) {
            stack.close();
            throw e;
        }
        return stack;
    }
}
