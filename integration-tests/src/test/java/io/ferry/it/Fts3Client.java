package io.ferry.it;

import io.ferry.stack.LocalStack;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The real FTS3 client (fts-rest-flask's {@code fts3} package and its {@code fts-rest-*} commands), unmodified, from
 * the shared clients folder: {@code -Dferry.clients.dir}, else {@code FERRY_CLIENTS_DIR}, else {@code ../shared/clients}
 * beside the project. Commands run with Debian's {@code /usr/bin/python3} and a home of their own, so no
 * {@code ~/.fts3client.cfg} of the user's changes what they send.
 */
final class Fts3Client {

    /** What a command printed (standard output and error, in order) and how it exited. */
    record Result(int exitCode, String output) {
        boolean ok() {
            return exitCode == 0;
        }

        @Override
        public String toString() {
            return "exit " + exitCode + ": " + output;
        }
    }

    static final String PYTHON = "/usr/bin/python3";

    private final Path folder;
    private final Path home;

    private Fts3Client(Path folder, Path home) {
        this.folder = folder;
        this.home = home;
    }

    /** The client, or the test is skipped saying what is missing. */
    static Fts3Client locateOrSkip() throws IOException, InterruptedException {
        Path clients = clientsDirectory();
        Path fts3 = clients.resolve("fts3");
        assumeTrue(Files.isRegularFile(fts3.resolve("cli/fts-rest-transfer-submit")),
                "the real FTS3 client is not at " + fts3 + " (set -Dferry.clients.dir or FERRY_CLIENTS_DIR to the shared clients folder)");
        assumeTrue(Files.isExecutable(Path.of(PYTHON)), PYTHON + " is missing (apt-get install python3)");
        Process probe = new ProcessBuilder(PYTHON, "-c", "import requests, M2Crypto").redirectErrorStream(true).start();
        String why = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assumeTrue(probe.waitFor() == 0, "the FTS3 client's Python packages are missing (apt-get install python3-requests"
                + " python3-m2crypto python3-pymysql python3-future python3-six): " + why.strip());
        return new Fts3Client(fts3, Files.createTempDirectory("fts3-client-home"));
    }

    /** The shared clients folder: {@code -Dferry.clients.dir}, else {@code FERRY_CLIENTS_DIR}, else {@code ../shared/clients}. */
    static Path clientsDirectory() {
        String configured = System.getProperty("ferry.clients.dir", System.getenv("FERRY_CLIENTS_DIR"));
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured).toAbsolutePath().normalize();
        }
        return LocalStack.projectRoot().resolve("../shared/clients").normalize();
    }

    /** {@code fts-rest-<command> args...}, waited for (at most two minutes). */
    Result run(String command, String... args) throws IOException, InterruptedException {
        List<String> argv = new ArrayList<>(List.of(PYTHON, folder.resolve("cli").resolve("fts-rest-" + command).toString()));
        argv.addAll(List.of(args));
        return execute(command, argv);
    }

    /** A Python program using the client's library ({@code fts3.rest.client.easy}), with {@code sys.argv[1:]} = args. */
    Result python(String program, String... args) throws IOException, InterruptedException {
        List<String> argv = new ArrayList<>(List.of(PYTHON, "-c", program));
        argv.addAll(List.of(args));
        return execute("python", argv);
    }

    private Result execute(String command, List<String> argv) throws IOException, InterruptedException {
        Path output = Files.createTempFile(home, command, ".out");
        ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(output.toFile());
        pb.environment().put("PYTHONPATH", folder.toString());
        pb.environment().put("HOME", home.toString());
        pb.environment().remove("X509_USER_PROXY");
        Process p = pb.start();
        p.getOutputStream().close();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("fts-rest-" + command + " did not finish within 120 s: " + Files.readString(output));
        }
        String printed = Files.readString(output);
        Files.delete(output);
        return new Result(p.exitValue(), printed);
    }

    /** The job id that {@code fts-rest-transfer-submit} printed ({@code Job id: …}). */
    static Optional<String> jobId(Result submitted) {
        return submitted.output().lines().filter(l -> l.startsWith("Job id: ")).map(l -> l.substring("Job id: ".length()).trim()).findFirst();
    }
}
