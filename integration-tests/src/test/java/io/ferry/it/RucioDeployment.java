package io.ferry.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ferry.stack.LocalStack;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real Rucio (PyPI's {@code rucio} server package and {@code rucio-clients}, pinned, unmodified) set up by the
 * scripts in {@code integration-tests/rucio}: its virtualenv ({@code install.sh}), configuration, schema, root account
 * and REST server ({@code setup.sh}); then its daemons run as an operator runs them, each with its log in
 * {@code <work>/log}.
 */
final class RucioDeployment implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    final Path work;
    private final Path scripts;
    private final Path venv;
    private final Map<String, String> environment = new HashMap<>();
    private final AtomicInteger runs = new AtomicInteger();
    private final List<Process> background = new ArrayList<>();

    private RucioDeployment(Path work, Map<String, String> setup) {
        this.work = work;
        this.scripts = LocalStack.projectRoot().resolve("integration-tests/rucio");
        this.venv = LocalStack.projectRoot().resolve(".ferry/rucio-venv");
        environment.putAll(setup);
        environment.put("RUCIO_WORK", work.toString());
        environment.put("RUCIO_VENV", venv.toString());
        environment.put("RUCIO_CONFIG", work.resolve("rucio.cfg").toString());
    }

    /**
     * Runs {@code setup.sh} with {@code setup} (RUCIO_DB_URL, FERRY_FTS3_URL, BROKER, RUCIO_USERCERT, RUCIO_SERVER_PORT
     * …): the virtualenv when missing, the configuration, the schema and the REST server.
     */
    static RucioDeployment setUp(Path work, Map<String, String> setup) throws Exception {
        RucioDeployment rucio = new RucioDeployment(work, setup);
        Files.createDirectories(work.resolve("log"));
        rucio.run("setup", Duration.ofMinutes(5), Map.of(), rucio.scripts.resolve("setup.sh").toString());
        return rucio;
    }

    /** One {@code --run-once} pass of a daemon ({@code rucio-conveyor-submitter} …); its output is returned. */
    String runOnce(String daemon, String... args) throws Exception {
        List<String> argv = new ArrayList<>(List.of(venv.resolve("bin").resolve(daemon).toString(), "--run-once"));
        argv.addAll(List.of(args));
        return run(daemon, Duration.ofMinutes(2), Map.of(), argv.toArray(String[]::new));
    }

    /** A long-running daemon ({@code rucio-conveyor-receiver}), stopped by {@link #close()} or by the caller. */
    Process start(String daemon, String... args) throws IOException {
        List<String> argv = new ArrayList<>(List.of(venv.resolve("bin").resolve(daemon).toString()));
        argv.addAll(List.of(args));
        Process p = process(Map.of(), argv).redirectErrorStream(true)
                .redirectOutput(work.resolve("log").resolve(daemon + "-" + runs.incrementAndGet() + ".log").toFile()).start();
        background.add(p);
        return p;
    }

    /** The log a {@link #start}ed daemon writes. */
    Path logOf(String daemon) throws IOException {
        try (var files = Files.list(work.resolve("log"))) {
            return files.filter(f -> f.getFileName().toString().startsWith(daemon + "-"))
                    .max(java.util.Comparator.comparing(f -> f.toFile().lastModified()))
                    .orElseThrow(() -> new AssertionError("no log of " + daemon));
        }
    }

    /** A script of {@code integration-tests/rucio} run by the virtualenv's Python as a Rucio client; its output. */
    String clientScript(String script, Map<String, String> env, String... args) throws Exception {
        List<String> argv = new ArrayList<>(List.of(venv.resolve("bin/python").toString(), scripts.resolve(script).toString()));
        argv.addAll(List.of(args));
        Map<String, String> all = new HashMap<>(env);
        all.put("RUCIO_CLIENT_MODE", "1");
        return run(script, Duration.ofMinutes(2), all, argv.toArray(String[]::new));
    }

    /** A Python program run as a Rucio client ({@code from rucio.client import Client} …); its output. */
    String client(String program) throws Exception {
        return run("client", Duration.ofMinutes(1), Map.of("RUCIO_CLIENT_MODE", "1"), venv.resolve("bin/python").toString(), "-c", program);
    }

    /** What {@code inspect-rule.py} prints of a dataset's rule to {@code rse}. */
    JsonNode inspect(String scope, String dataset, String rse) throws Exception {
        String out = clientScript("inspect-rule.py", Map.of(), scope, dataset, rse);
        return JSON.readTree(out.lines().filter(l -> l.startsWith("{")).reduce((a, b) -> b).orElseThrow(() -> new AssertionError(out)));
    }

    private ProcessBuilder process(Map<String, String> env, List<String> argv) {
        ProcessBuilder pb = new ProcessBuilder(argv).directory(LocalStack.projectRoot().toFile());
        pb.environment().remove("PYTHONPATH");
        pb.environment().remove("PYTHONHOME");
        pb.environment().putAll(environment);
        pb.environment().putAll(env);
        return pb;
    }

    /** Runs a command to its end, its output also kept in the log folder; fails with the output unless it exits 0. */
    private String run(String name, Duration timeout, Map<String, String> env, String... argv) throws Exception {
        Path log = work.resolve("log").resolve(name + "-" + runs.incrementAndGet() + ".log");
        Process p = process(env, List.of(argv)).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(name + " did not end within " + timeout + ": " + Files.readString(log));
        }
        String out = Files.readString(log, StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new AssertionError(name + " exited " + p.exitValue() + ": " + out);
        }
        return out;
    }

    @Override
    public void close() throws Exception {
        for (Process p : background) {
            p.destroy();
        }
        for (Process p : background) {
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
        Path pid = work.resolve("server.pid");
        if (Files.exists(pid)) {
            long server = Long.parseLong(Files.readString(pid).strip());
            ProcessHandle.of(server).ifPresent(h -> {
                h.descendants().forEach(ProcessHandle::destroy);
                h.destroy();
            });
        }
    }
}
