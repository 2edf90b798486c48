package io.ferry.it;

import eu.emi.security.authn.x509.proxy.ProxyType;
import io.ferry.dev.DevTokens;
import io.ferry.dev.NginxWebDav;
import io.ferry.dev.testca.GridCredential;
import io.ferry.dev.testca.TestGridCa;
import io.ferry.stack.LocalStack;
import io.ferry.stack.ServiceSpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The real FTS3 client (PyPI's {@code fts3}, unmodified, from the {@link ClientsVenv}) against the packaged stack with
 * an X.509 proxy carrying VOMS attributes: {@code fts-rest-delegate}, then a certificate submission (which delegates
 * by itself when needed) and its status until FINISHED; and each refused credential (expired, untrusted CA, revoked by
 * the CRL, a VO the stack does not serve) is a 401 with its reason.
 */
class Fts3X509IT {

    static LocalStack stack;
    static NginxWebDav nginx;
    static ClientsVenv clients;
    static Path work;

    @BeforeAll
    static void start() throws Exception {
        clients = ClientsVenv.require("fts3.rest.client", "M2Crypto");
        // trust anchors read again every second, so the CRL this test writes takes effect; cms is not served here
        stack = ItStacks.start("it-fts3-x509", Map.of("FERRY_IDENTITY_X509_REFRESH", "PT1S", "FERRY_IDENTITY_X509_VOS", "atlas,dteam"));
        nginx = new NginxWebDav();
        work = Files.createTempDirectory("it-fts3-x509");
        String admin = stack.tokens().mint(DevTokens.Claims.of("it-admin", null, "transfer:admin"));
        for (String[] se : new String[][]{{"X509-A", "/se-a"}, {"X509-B", "/se-b"}}) {
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                            URI.create(stack.service(ServiceSpec.SCHEDULER).url() + "/endpoints/" + se[0]))
                    .header("Authorization", "Bearer " + admin).header("Content-Type", "application/json")
                    .PUT(HttpRequest.BodyPublishers.ofString("{\"site\":\"" + se[0] + "-SITE\",\"baseUrls\":{\"http\":\""
                            + nginx.url(se[1]) + "\"},\"access\":{\"open\":true}}")).build(), HttpResponse.BodyHandlers.ofString());
            assertTrue(r.statusCode() == 200 || r.statusCode() == 201, r.body());
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (nginx != null) {
            nginx.close();
        }
        if (stack != null) {
            stack.close();
        }
    }

    /** The CLI's output (stdout and stderr) and exit code. */
    record Run(int exit, String output) {
    }

    static Run cli(String command, Path proxy, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(clients.command(command).toString(),
                "-s", stack.schedulerHttpsUrl(), "--cert", proxy.toString(), "--key", proxy.toString(),
                "--capath", stack.gridPki().certificates().toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = clients.process(cmd.toArray(String[]::new)).redirectErrorStream(true);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(command + " did not finish: " + out);
        }
        return new Run(p.exitValue(), out);
    }

    static Path proxy(String vo, String name) throws IOException {
        return stack.gridPki().writeProxy(vo, List.of("/" + vo + "/Role=production"), Duration.ofHours(12), work.resolve(name));
    }

    @Test
    void delegateSubmitAndPollWithAVomsProxyUntilFinished() throws Exception {
        Path proxy = proxy("atlas", "atlas.proxy");
        Files.write(nginx.file("se-a/x509.bin"), new byte[123_456]);

        Run delegated = cli("fts-rest-delegate", proxy);
        assertEquals(0, delegated.exit(), delegated.output());
        Matcher id = Pattern.compile("Delegation id: ([0-9a-f]{16})").matcher(delegated.output());
        assertTrue(id.find(), delegated.output());

        Run submitted = cli("fts-rest-transfer-submit", proxy, nginx.url("/se-a/x509.bin"), nginx.url("/se-b/x509.bin"));
        assertEquals(0, submitted.exit(), submitted.output());
        Matcher job = Pattern.compile("([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})").matcher(submitted.output());
        assertTrue(job.find(), submitted.output());
        Run status = null;
        for (Instant until = Instant.now().plusSeconds(60); Instant.now().isBefore(until); Thread.sleep(1000)) {
            status = cli("fts-rest-transfer-status", proxy, job.group(1));
            if (status.output().contains("FINISHED") || status.output().contains("FAILED")) {
                break;
            }
        }
        assertTrue(status != null && status.output().contains("FINISHED") && !status.output().contains("FAILED"), String.valueOf(status));
        assertEquals(123_456, Files.size(nginx.file("se-b/x509.bin")));
        String admin = stack.tokens().mint(DevTokens.Claims.of("it-admin", null, "transfer:admin"));
        String read = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(stack.service(ServiceSpec.SCHEDULER).url()
                + "/jobs/" + job.group(1))).header("Authorization", "Bearer " + admin).build(), HttpResponse.BodyHandlers.ofString()).body();
        assertTrue(read.contains("\"cred_id\":\"" + id.group(1) + "\""), read);
    }

    @Test
    void aProxyOfAnUntrustedCaIsRefusedWithItsReason() throws Exception {
        TestGridCa other = TestGridCa.create("/DC=org/DC=elsewhere/CN=Other CA", Duration.ofDays(2));
        Instant now = Instant.now();
        Path proxy = other.issueUser("/DC=org/DC=elsewhere/CN=mallory", now.minusSeconds(300), now.plus(Duration.ofDays(1)))
                .proxy(ProxyType.RFC3820, now.minusSeconds(300), now.plus(Duration.ofHours(12)), List.of()).writeProxy(work.resolve("untrusted.proxy"));

        assertRefused(cli("fts-rest-whoami", proxy), "CERTIFICATE_UNTRUSTED");
    }

    @Test
    void aProxyOfARevokedCertificateIsRefusedWithItsReason() throws Exception {
        Path grid = stack.stateDirectory().resolve("grid");
        TestGridCa ca = TestGridCa.of(GridCredential.load(grid.resolve("ca/ca.pem"), grid.resolve("ca/ca.key")));
        Instant now = Instant.now();
        GridCredential revoked = ca.issueUser("/DC=org/DC=ferry/OU=Users/CN=revoked", now.minusSeconds(300), now.plus(Duration.ofDays(1)));
        ca.revoke(revoked.certificate());
        ca.writeTrustAnchors(stack.gridPki().certificates());
        Path proxy = revoked.proxy(ProxyType.RFC3820, now.minusSeconds(300), now.plus(Duration.ofHours(12)),
                List.of(stack.gridPki().signer("atlas").attributeCertificate(revoked.certificate(), List.of("/atlas/Role=production"),
                        now.minusSeconds(300), now.plus(Duration.ofHours(12))))).writeProxy(work.resolve("revoked.proxy"));
        Thread.sleep(3000);  // the scheduler reads the new CRL within a second or two

        assertRefused(cli("fts-rest-whoami", proxy), "CERTIFICATE_REVOKED");
    }

    @Test
    void aProxyOfAVoTheStackDoesNotServeIsRefusedWithItsReason() throws Exception {
        assertRefused(cli("fts-rest-whoami", proxy("cms", "cms.proxy")), "VO_NOT_ACCEPTED");
    }

    /**
     * The FTS3 client refuses to send a proxy that expired ("Proxy expired!"), so the server's answer to one is asked
     * the way any other TLS client would present it.
     */
    @Test
    void anExpiredProxyIsRefusedWithItsReason() throws Exception {
        Instant now = Instant.now();
        GridCredential user = stack.gridPki().user();
        GridCredential expired = user.proxy(ProxyType.RFC3820, now.minus(Duration.ofHours(3)), now.minus(Duration.ofHours(1)), List.of());
        Path proxy = expired.writeProxy(work.resolve("expired.proxy"));
        Run client = cli("fts-rest-whoami", proxy);
        assertNotEquals(0, client.exit(), client.output());

        HttpResponse<String> r = HttpClient.newBuilder().sslContext(expired.clientTls(stack.gridPki().caCertificate())).build()
                .send(HttpRequest.newBuilder(URI.create(stack.schedulerHttpsUrl() + "/whoami")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(401, r.statusCode(), r.body());
        assertTrue(r.body().contains("CERTIFICATE_EXPIRED"), r.body());
    }

    static void assertRefused(Run run, String code) {
        assertNotEquals(0, run.exit(), run.output());
        assertTrue(run.output().contains(code) && run.output().contains("401"), run.output());
    }
}
