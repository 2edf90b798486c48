package io.ferry.scheduler.webhooks;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The addresses a webhook host resolves to: DNS, or in tests a hosts file ({@link WebhookConfig#hostsFile()}), read
 * on each lookup, so that only webhook delivery sees the test's names and the rest of the JVM resolves as usual.
 */
@ApplicationScoped
public class WebhookResolver {

    private final WebhookConfig config;

    @Inject
    WebhookResolver(WebhookConfig config) {
        this.config = config;
    }

    public List<InetAddress> resolve(String host) throws UnknownHostException {
        if (config.hostsFile().isEmpty()) {
            return List.of(InetAddress.getAllByName(host));
        }
        List<InetAddress> found = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(Path.of(config.hostsFile().get()))) {
                String[] words = line.replaceAll("#.*", "").trim().split("\\s+");
                for (int i = 1; i < words.length; i++) {
                    if (words[i].toLowerCase(Locale.ROOT).equals(host.toLowerCase(Locale.ROOT))) {
                        // an address literal: no lookup happens
                        found.add(InetAddress.getByName(words[0]));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (found.isEmpty()) {
            if (host.matches("[0-9.]+|.*:.*")) {
                return List.of(InetAddress.getAllByName(host));
            }
            throw new UnknownHostException(host + " (not in " + config.hostsFile().get() + ")");
        }
        return found;
    }
}
