package io.ferry.it;

import io.ferry.stack.LocalStack;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The virtualenv that {@code ./ferry test} fills from PyPI with the real clients these tests drive, unmodified: FTS3's
 * client and CLI ({@code fts3}, its {@code fts-rest-*} commands) and EUDAT's {@code pyhandle}. Where it is:
 * {@code -Dferry.clients.venv} (the integration-tests pom passes it), else {@code .ferry/clients-venv} in the checkout,
 * where the launcher makes it. Without it the tests fail: they are the evidence that those clients work unchanged.
 */
record ClientsVenv(Path root) {

    /** The virtualenv, checked to import {@code modules}, or an AssertionError saying to run {@code ./ferry test}. */
    static ClientsVenv require(String... modules) throws IOException, InterruptedException {
        String configured = System.getProperty("ferry.clients.venv");
        Path root = configured == null || configured.isBlank()
                ? LocalStack.projectRoot().resolve(".ferry/clients-venv")
                : Path.of(configured).toAbsolutePath().normalize();
        ClientsVenv venv = new ClientsVenv(root);
        String fix = "./ferry test installs them in .ferry/clients-venv, then runs the tests";
        if (!Files.isExecutable(venv.python())) {
            throw new AssertionError("the FTS3 client and pyhandle are not installed: no virtualenv at " + root + "; " + fix);
        }
        Process probe = venv.process("-c", "import " + String.join(", ", modules)).redirectErrorStream(true).start();
        String why = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!probe.waitFor(60, TimeUnit.SECONDS) || probe.exitValue() != 0) {
            probe.destroyForcibly();
            throw new AssertionError("the virtualenv at " + root + " cannot import " + String.join(", ", modules) + "; " + fix
                    + ": " + why.strip());
        }
        return venv;
    }

    /** The virtualenv's Python, which sees what was installed in it (and Debian's M2Crypto). */
    Path python() {
        return root.resolve("bin/python");
    }

    /** A command the installed packages put in the virtualenv, such as {@code fts-rest-whoami}. */
    Path command(String name) {
        return root.resolve("bin").resolve(name);
    }

    /** The virtualenv's Python with these arguments: one of its {@link #command}s, or {@code -c} and a program. */
    ProcessBuilder process(String... argv) {
        String[] full = new String[argv.length + 1];
        full[0] = python().toString();
        System.arraycopy(argv, 0, full, 1, argv.length);
        ProcessBuilder pb = new ProcessBuilder(full);
        // what the user's shell adds to Python's path would shadow the virtualenv's packages
        pb.environment().remove("PYTHONPATH");
        pb.environment().remove("PYTHONHOME");
        return pb;
    }
}
