package io.ferry.it;

import io.ferry.dev.DevTokens;
import io.ferry.dev.FreePort;
import io.ferry.stack.LocalStack;
import io.ferry.stack.ServiceProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * schemathesis (from PyPI, as its users install it) against every service's own OpenAPI document, with a token that
 * passes authorization and without one: it generates requests from the document (valid ones and invalid ones), runs
 * them alone and chained, and checks each answer: no 5xx, the status, content type, headers and body the document
 * declares (every 4xx a problem document), valid requests accepted and invalid ones refused, a 405 with its
 * {@code Allow}. A failure means the service or its document is wrong; st's report of it is in
 * {@code target/schemathesis/}. Its settings, and why they differ from schemathesis's defaults:
 * {@code integration-tests/schemathesis/schemathesis.toml}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SchemathesisIT {

    /** A fixed seed: a failure found once is found again on the next run, and by {@code st run --seed}. */
    private static final String SEED = "20261206";
    private LocalStack stack;
    private String token;
    private Path st;

    @BeforeAll
    void startStack() throws Exception {
        String configured = System.getProperty("ferry.schemathesis.venv");
        Path venv = configured == null || configured.isBlank()
                ? LocalStack.projectRoot().resolve(".ferry/schemathesis-venv") : Path.of(configured);
        st = venv.resolve("bin/st");
        assertTrue(Files.isExecutable(st), "schemathesis is not installed at " + venv
                + "; ./ferry test installs it (integration-tests/schemathesis/install.sh), then runs the tests");
        // The resolver's native Handle port on a free port of its own: ./ferry up's stack may hold the default one.
        stack = ItStacks.start("it-schemathesis", Map.of("FERRY_RESOLVER_NATIVE_PORT", Integer.toString(FreePort.find())));
        token = stack.tokens().mint(DevTokens.Claims.of("schemathesis", "atlas", BadInputSweepIT.ALL_SCOPES).withSite("RAL-LCG2"));
    }

    @AfterAll
    void stopStack() throws Exception {
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    void everyServiceAnswersAsItsDocumentSaysWithAndWithoutAToken() throws Exception {
        List<String> failed = new ArrayList<>();
        for (ServiceProcess service : stack.services()) {
            for (boolean withToken : new boolean[]{true, false}) {
                String run = service.spec().name() + (withToken ? "-token" : "-anonymous");
                String failure = schemathesis(service, withToken, run);
                if (failure != null) {
                    failed.add(run + ":\n" + failure);
                }
            }
            assertTrue(service.isAlive(), service.spec().name() + " died");
        }
        assertTrue(failed.isEmpty(), String.join("\n\n", failed));
    }

    /** Runs st against one service; null when it found nothing, else the part of its report that says what. */
    private String schemathesis(ServiceProcess service, boolean withToken, String run) throws IOException, InterruptedException {
        Path report = Path.of("target", "schemathesis", run + ".txt").toAbsolutePath();
        Files.createDirectories(report.getParent());
        Path config = LocalStack.projectRoot().resolve("integration-tests/schemathesis/schemathesis.toml");
        List<String> argv = new ArrayList<>(List.of(st.toString(), "--config-file", config.toString(), "run",
                service.url() + "/q/openapi?format=json",
                "--url", service.url(), "--max-examples", "10", "--workers", "1", "--seed", SEED,
                "--request-timeout", "30"));
        if (withToken) {
            argv.addAll(List.of("-H", "Authorization: Bearer " + token));
        }
        // st keeps a cache of what it found in .schemathesis/ of its working directory: keep it in target/
        ProcessBuilder pb = new ProcessBuilder(argv).directory(report.getParent().toFile())
                .redirectErrorStream(true).redirectOutput(report.toFile());
        pb.environment().put("NO_COLOR", "1");
        pb.environment().remove("PYTHONPATH");
        Process p = pb.start();
        if (!p.waitFor(10, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            return "st did not finish within 10 minutes; see " + report;
        }
        String out = Files.readString(report, StandardCharsets.UTF_8);
        System.out.println(run + ": " + lastLine(out));
        if (p.exitValue() == 0) {
            return null;
        }
        int failures = out.indexOf("FAILURES");
        String what = failures < 0 ? out : out.substring(failures);
        return (what.length() > 20_000 ? what.substring(0, 20_000) + "\n..." : what) + "\n(" + report + ")";
    }

    private static String lastLine(String out) {
        String[] lines = out.strip().split("\n");
        return lines.length == 0 ? "" : lines[lines.length - 1];
    }
}
