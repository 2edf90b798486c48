package io.ferry.scheduler.webhooks;

import io.ferry.dev.NamespacedHttpsReceiver;
import io.ferry.dev.TestCertificates;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * A webhook receiver at a public-looking address ({@link NamespacedHttpsReceiver}) with a certificate of a test CA for
 * {@code hooks.ferry.test}, and a hosts file for the scheduler's webhook resolver: that name points at the receiver,
 * others at loopback, private and mixed addresses. Retries are quick, the timeout short.
 */
public class WebhookFixture implements QuarkusTestResourceLifecycleManager {

    static final Path DIR = Path.of("target", "webhook-test").toAbsolutePath();
    static final Path HOSTS = DIR.resolve("hosts");
    static final String HOST = "hooks.ferry.test";

    static NamespacedHttpsReceiver receiver;

    @Override
    public Map<String, String> start() {
        try {
            TestCertificates pki = TestCertificates.create(DIR.resolve("pki-" + System.nanoTime()));
            Path[] server = pki.issueServer("hooks", HOST);
            receiver = new NamespacedHttpsReceiver(DIR, server[0], server[1]);
            Files.writeString(HOSTS, receiver.address() + " " + HOST + "\n"
                    + "127.0.0.1 loop.ferry.test\n"
                    + "10.1.2.3 ten.ferry.test\n"
                    + receiver.address() + " mixed.ferry.test\n"
                    + "fd00::1 mixed.ferry.test\n");
            return Map.of("ferry.scheduler.webhooks.ca-certificates", pki.caCertificate().toString(),
                    "ferry.scheduler.webhooks.hosts-file", HOSTS.toString(),
                    "ferry.scheduler.webhooks.interval", "200ms",
                    "ferry.scheduler.webhooks.initial-backoff", "2s",
                    "ferry.scheduler.webhooks.max-backoff", "8s",
                    "ferry.scheduler.webhooks.timeout", "3s");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void stop() {
        try {
            if (receiver != null) {
                receiver.close();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
