package io.ferry.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The real FTS3 client (PyPI's {@code fts3} package and its {@code fts-rest-*} commands), unmodified, as installed in
 * the {@link ClientsVenv}. Commands run with the virtualenv's Python and a home of their own, so no
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

    private final ClientsVenv venv;
    private final Path home;

    private Fts3Client(ClientsVenv venv, Path home) {
        this.venv = venv;
        this.home = home;
    }

    /** The client, or an AssertionError saying how to install it. */
    static Fts3Client locate() throws IOException, InterruptedException {
        return new Fts3Client(ClientsVenv.require("fts3.rest.client.easy", "M2Crypto"), Files.createTempDirectory("fts3-client-home"));
    }

    /** {@code fts-rest-<command> args...}, waited for (at most two minutes). */
    Result run(String command, String... args) throws IOException, InterruptedException {
        List<String> argv = new ArrayList<>(List.of(venv.command("fts-rest-" + command).toString()));
        argv.addAll(List.of(args));
        return execute(command, argv);
    }

    /** A Python program using the client's library ({@code fts3.rest.client.easy}), with {@code sys.argv[1:]} = args. */
    Result python(String program, String... args) throws IOException, InterruptedException {
        List<String> argv = new ArrayList<>(List.of("-c", program));
        argv.addAll(List.of(args));
        return execute("python", argv);
    }

    private Result execute(String command, List<String> argv) throws IOException, InterruptedException {
        Path output = Files.createTempFile(home, command, ".out");
        ProcessBuilder pb = venv.process(argv.toArray(String[]::new)).redirectErrorStream(true).redirectOutput(output.toFile());
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
