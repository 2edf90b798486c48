package io.ferry.scheduler.webhooks;

import io.ferry.movers.TlsSockets;
import io.ferry.scheduler.config.SchedulerConfig;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * POSTs one event over HTTP/1.1 and TLS, and nothing else: the host is resolved here and every address it resolves
 * to vetted ({@link AddressPolicy}); the connection goes to the vetted address (a second lookup could answer
 * otherwise: DNS rebinding) while SNI, the certificate check and {@code Host} use the name. Redirects are not followed
 * (a 3xx is a failure). Of the answer only the status line and headers are read, at most {@link #MAX_HEAD} bytes, and
 * everything, connecting included, ends within the configured timeout. Trusts the JDK's CAs and {@link WebhookConfig#caCertificates()}.
 */
@ApplicationScoped
public class WebhookSender {

    static final int MAX_HEAD = 64 * 1024;

    private final WebhookConfig config;
    private final SchedulerConfig scheduler;
    private final WebhookResolver resolver;
    private SSLSocketFactory tls;
    /** Closes a try's socket at its deadline, whatever it waits for then: a handshake a byte at a time included. */
    private final ScheduledExecutorService deadlines = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "webhook-deadlines");
        t.setDaemon(true);
        return t;
    });

    @Inject
    WebhookSender(WebhookConfig config, SchedulerConfig scheduler, WebhookResolver resolver) {
        this.config = config;
        this.scheduler = scheduler;
        this.resolver = resolver;
    }

    @PostConstruct
    void init() {
        try {
            tls = TlsSockets.factory(config.caCertificates().or(() -> scheduler.engine().tls().caCertificates()).map(Path::of),
                    java.util.Optional.empty(), java.util.Optional.empty());
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("the CAs for webhook receivers (ferry.scheduler.webhooks.ca-certificates) are unusable: " + e.getMessage(), e);
        }
    }

    /** How a try ended: the HTTP status (0 if none came) and, unless 2xx, why it counts as failed. */
    public record Outcome(int status, String error) {
        public boolean delivered() {
            return error == null;
        }
    }

    public Outcome post(URI url, Map<String, String> headers, byte[] body) {
        long deadline = System.nanoTime() + config.timeout().toNanos();
        String host = url.getHost();
        int port = url.getPort() == -1 ? 443 : url.getPort();
        InetAddress address;
        try {
            List<InetAddress> addresses = resolver.resolve(host);
            for (InetAddress a : addresses) {
                String why = AddressPolicy.refusal(a);
                if (why != null) {
                    return new Outcome(0, "not sent: " + host + " resolves to " + a.getHostAddress() + ", " + why);
                }
            }
            address = addresses.get(0);
        } catch (IOException e) {
            return new Outcome(0, "not sent: " + host + " does not resolve (" + e.getMessage() + ")");
        }
        try (Socket plain = new Socket()) {
            ScheduledFuture<?> watchdog = deadlines.schedule(() -> closeQuietly(plain), deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            try {
                return exchange(plain, address, url, host, port, headers, body, deadline);
            } catch (IOException e) {
                if (System.nanoTime() - deadline >= 0) {
                    return new Outcome(0, "no answer within " + config.timeout());
                }
                throw e;
            } finally {
                watchdog.cancel(false);
            }
        } catch (SocketTimeoutException e) {
            return new Outcome(0, "no answer within " + config.timeout());
        } catch (IOException | RuntimeException e) {
            return new Outcome(0, "failed: " + e);
        }
    }

    @PreDestroy
    void stop() {
        deadlines.shutdownNow();
    }

    private Outcome exchange(Socket plain, InetAddress address, URI url, String host, int port, Map<String, String> headers, byte[] body,
                             long deadline) throws IOException {
        plain.connect(new InetSocketAddress(address, port), remainingMillis(deadline));
        try (SSLSocket s = (SSLSocket) tls.createSocket(plain, host, port, true)) {
            SSLParameters p = s.getSSLParameters();
            p.setEndpointIdentificationAlgorithm("HTTPS");
            if (!host.startsWith("[") && !host.matches("[0-9.]+")) {
                p.setServerNames(List.of(new SNIHostName(host)));
            }
            s.setSSLParameters(p);
            s.setSoTimeout(remainingMillis(deadline));
            s.startHandshake();
            OutputStream out = s.getOutputStream();
            out.write(requestHead(url, host, port, headers, body.length));
            out.write(body);
            out.flush();
            int status = status(readHead(s, deadline));
            return status / 100 == 2 ? new Outcome(status, null)
                    : new Outcome(status, "answered HTTP " + status + (status / 100 == 3 ? " (redirects are not followed)" : ""));
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // closing is all that was wanted
        }
    }

    private static byte[] requestHead(URI url, String host, int port, Map<String, String> headers, int length) {
        String path = (url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath())
                + (url.getRawQuery() == null ? "" : "?" + url.getRawQuery());
        StringBuilder b = new StringBuilder("POST ").append(path).append(" HTTP/1.1\r\n")
                .append("Host: ").append(host).append(port == 443 ? "" : ":" + port).append("\r\n")
                .append("User-Agent: Ferry-Webhooks/1\r\nContent-Type: application/json\r\nConnection: close\r\n")
                .append("Content-Length: ").append(length).append("\r\n");
        headers.forEach((k, v) -> b.append(k).append(": ").append(v).append("\r\n"));
        return b.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    /** The answer's status line and headers: up to the blank line, at most {@link #MAX_HEAD} bytes, before the deadline. */
    private static String readHead(SSLSocket s, long deadline) throws IOException {
        InputStream in = s.getInputStream();
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        byte[] buf = new byte[4096];
        while (true) {
            int remaining = remainingMillis(deadline);
            s.setSoTimeout(remaining);
            int n = in.read(buf);
            if (n < 0) {
                break;
            }
            head.write(buf, 0, n);
            String text = head.toString(StandardCharsets.ISO_8859_1);
            if (text.contains("\r\n\r\n") || text.contains("\n\n")) {
                break;
            }
            if (head.size() > MAX_HEAD) {
                throw new IOException("the answer's head is longer than " + MAX_HEAD + " bytes");
            }
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }

    private static int status(String head) throws IOException {
        String[] first = head.split("\r?\n", 2)[0].split(" ");
        if (first.length < 2 || !first[0].startsWith("HTTP/1.") || !first[1].matches("\\d{3}")) {
            throw new IOException("not an HTTP answer");
        }
        return Integer.parseInt(first[1]);
    }

    /** The time left, at least 1 ms (0 would mean no timeout); a {@link SocketTimeoutException} once it is gone. */
    private static int remainingMillis(long deadline) throws SocketTimeoutException {
        long left = (deadline - System.nanoTime()) / 1_000_000;
        if (left <= 0) {
            throw new SocketTimeoutException("deadline");
        }
        return (int) Math.min(Integer.MAX_VALUE, left);
    }
}
