package io.ferry.stack;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A packaged service running as its own process, its output in a log file: a JVM running quarkus-run.jar, or the
 * service's native executable ({@code *-runner}, see {@link #NATIVE}).
 */
public final class ServiceProcess {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final ServiceSpec spec;
    private final int port;
    private final Path jar;
    private final Path log;
    private final Map<String, String> env;
    private final Map<String, String> systemProperties;
    private Process process;

    public ServiceProcess(ServiceSpec spec, int port, Path jar, Path log, Map<String, String> env) {
        this(spec, port, jar, log, env, Map.of());
    }

    /**
     * {@code systemProperties} are given as {@code -D} options: settings whose names an environment variable cannot
     * spell unambiguously (map keys such as {@code quarkus.tls.key-store.pem.0.cert}).
     */
    public ServiceProcess(ServiceSpec spec, int port, Path jar, Path log, Map<String, String> env,
                          Map<String, String> systemProperties) {
        this.systemProperties = Map.copyOf(systemProperties);
        this.spec = spec;
        this.port = port;
        this.jar = jar;
        this.log = log;
        this.env = env;
    }

    public ServiceSpec spec() {
        return spec;
    }

    public int port() {
        return port;
    }

    public String url() {
        return "http://localhost:" + port;
    }

    public Path log() {
        return log;
    }

    /**
     * System property with the services' JVM options. The default starts fast and small (C1 only, serial GC), right for
     * tests and a laptop; benchmarks pass full-JIT options (bench scripts: {@code -Xmx1g}), as a deployment would run.
     */
    public static final String JVM_ARGS = "ferry.service.jvm-args";
    static final String FAST_START = "-Xms64m -Xmx384m -XX:+UseSerialGC -XX:TieredStopAtLevel=1";

    /**
     * System property ({@code -Dferry.native=true}) or environment variable ({@code FERRY_NATIVE=1}) that makes the stack
     * start the services' native executables ({@code target/<name>-*-runner}, built by
     * integration-tests/native-toolchain/build-native.sh) instead of quarkus-run.jar, with the same environment. A
     * comma-separated list of service names ({@code tcp-profiles,rate-aggregator}) makes only those native.
     */
    public static final String NATIVE = "ferry.native";

    /** System property with the native executables' options; the heap limit matches the JVM's default above. */
    public static final String NATIVE_ARGS = "ferry.service.native-args";
    static final String NATIVE_DEFAULT = "-Xmx384m";

    public static boolean nativeRequested(String service) {
        String value = System.getProperty(NATIVE, System.getenv().getOrDefault("FERRY_NATIVE", "false")).trim();
        return value.equals("1") || value.equalsIgnoreCase("true") || List.of(value.split("\\s*,\\s*")).contains(service);
    }

    /**
     * The service's native executable in {@code serviceDir/target}, or the path it would have (so that the missing
     * file is named when starting).
     */
    public static Path nativeExecutable(Path serviceDir, String name) throws IOException {
        Path target = serviceDir.resolve("target");
        if (Files.isDirectory(target)) {
            try (var files = Files.list(target)) {
                var runner = files.filter(f -> f.getFileName().toString().startsWith(name + "-")
                        && f.getFileName().toString().endsWith("-runner") && Files.isExecutable(f)).findFirst();
                if (runner.isPresent()) {
                    return runner.get();
                }
            }
        }
        return target.resolve(name + "-<version>-runner");
    }

    public synchronized void start() throws IOException {
        boolean executable = jar.getFileName().toString().endsWith("-runner");
        if (!Files.isRegularFile(jar)) {
            throw new IOException(spec.name() + " is not built: " + jar + " is missing (run " + (executable
                    ? "integration-tests/native-toolchain/build-native.sh services/" + spec.name() : "./mvnw -DskipTests package") + ")");
        }
        Files.createDirectories(log.getParent());
        List<String> cmd = new ArrayList<>();
        if (executable) {
            cmd.add(jar.toString());
            cmd.addAll(List.of(System.getProperty(NATIVE_ARGS, NATIVE_DEFAULT).trim().split("\\s+")));
        } else {
            cmd.add(javaBinary());
            cmd.addAll(List.of(System.getProperty(JVM_ARGS, FAST_START).trim().split("\\s+")));
        }
        systemProperties.forEach((name, value) -> cmd.add("-D" + name + "=" + value));
        if (!executable) {
            cmd.addAll(List.of("-jar", jar.toString()));
        }
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().putAll(env);
        process = pb.start();
    }

    /** CPU time the service's process has used so far (-1 when not running or not known). */
    public synchronized long cpuMillis() {
        return process == null ? -1 : io.ferry.dev.ProcessCpu.millis(process.toHandle());
    }

    /** The process id while running, else -1. */
    public synchronized long pid() {
        return process == null ? -1 : process.pid();
    }

    public boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** Stops the service: SIGTERM, then SIGKILL after {@code grace}. */
    public synchronized void stop(Duration grace) throws InterruptedException {
        if (process == null) {
            return;
        }
        process.destroy();
        if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        process = null;
    }

    /** Kills the service at once, as a crash would. */
    public synchronized void kill() throws InterruptedException {
        if (process != null) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            process = null;
        }
    }

    /** The HTTP status of {@code /q/health/ready}, or -1 when nothing answers. */
    public int readiness() {
        return status("/q/health/ready");
    }

    public int status(String path) {
        try {
            HttpResponse<Void> r = HTTP.send(HttpRequest.newBuilder(URI.create(url() + path))
                    .timeout(Duration.ofSeconds(5)).GET().build(), HttpResponse.BodyHandlers.discarding());
            return r.statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** Waits until readiness answers 200; fails early if the process dies. */
    public void awaitReady(Duration timeout) throws IOException, InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        while (Instant.now().isBefore(deadline)) {
            if (!isAlive()) {
                throw new IOException(spec.name() + " exited during start-up; see " + log + ":\n" + tail(40));
            }
            if (readiness() == 200) {
                return;
            }
            Thread.sleep(250);
        }
        throw new IOException(spec.name() + " not ready after " + timeout.toSeconds() + " s; see " + log + ":\n" + tail(40));
    }

    public String tail(int lines) {
        try {
            List<String> all = Files.readAllLines(log);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(no log)";
        }
    }

    private static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
