package io.ferry.dev;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * An HTTPS receiver at a public-looking address, for testing outbound calls that refuse private ones (webhooks): a
 * network namespace joined to this host by a veth pair on a /30 of TEST-NET-3 (203.0.113.0/24, documentation space,
 * neither private nor loopback), and a Python receiver on port 443 inside it. Needs root and {@code ip netns}.
 * Every POST is appended, as one JSON line (path, headers, body), to {@link #log()}. The path chooses the answer:
 * {@code /redirect} a 302 to {@code https://127.0.0.1/}, {@code /oversized} a head of endless headers,
 * {@code /slow} nothing for an hour, {@code /drip} a byte of head every half second, {@code /fail} 503, else 204.
 * {@link #stop()} and {@link #start()} take it down and up again; {@link #close()} removes the namespace, and a
 * shutdown hook does so if the JVM ends first.
 */
public final class NamespacedHttpsReceiver implements AutoCloseable {

    private static final String SERVER = """
            import http.server, json, socketserver, ssl, sys, time
            cert, key, log = sys.argv[1], sys.argv[2], sys.argv[3]
            class Handler(http.server.BaseHTTPRequestHandler):
                protocol_version = "HTTP/1.1"
                def do_POST(self):
                    body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                    with open(log, "a") as f:
                        f.write(json.dumps({"path": self.path, "headers": dict(self.headers.items()), "body": body.decode()}) + "\\n")
                    if self.path == "/redirect":
                        self.send_response(302); self.send_header("Location", "https://127.0.0.1/"); self.send_header("Content-Length", "0"); self.end_headers()
                    elif self.path == "/oversized":
                        self.wfile.write(b"HTTP/1.1 200 OK\\r\\n")
                        while True:
                            self.wfile.write(b"X-Filler: " + b"x" * 1000 + b"\\r\\n")
                    elif self.path == "/slow":
                        time.sleep(3600)
                    elif self.path == "/drip":
                        for c in b"HTTP/1.1 200 OK\\r\\nX-Slow: " + b"y" * 100000:
                            self.wfile.write(bytes([c])); self.wfile.flush(); time.sleep(0.5)
                    elif self.path == "/fail":
                        self.send_response(503); self.send_header("Content-Length", "0"); self.end_headers()
                    else:
                        self.send_response(204); self.end_headers()
                def log_message(self, *args):
                    pass
            class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
                daemon_threads = True
            server = Server(("0.0.0.0", 443), Handler)
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(cert, key)
            server.socket = context.wrap_socket(server.socket, server_side=True)
            server.serve_forever()
            """;

    private final String namespace;
    private final String hostLink;
    private final String address;
    private final Path script;
    private final Path certificate;
    private final Path key;
    private final Path log;
    private final Thread cleanup = new Thread(this::removeNamespace);
    private Process server;

    /** Creates the namespace and starts the receiver with this certificate (for the name the caller resolves to {@link #address()}). */
    public NamespacedHttpsReceiver(Path dir, Path certificate, Path key) throws Exception {
        int block = ThreadLocalRandom.current().nextInt(64);
        String tag = Long.toString(ProcessHandle.current().pid() % 100_000) + block;
        this.namespace = "ferrywh" + tag;
        this.hostLink = "fwh" + tag;
        this.address = "203.0.113." + (block * 4 + 2);
        this.certificate = certificate;
        this.key = key;
        Files.createDirectories(dir);
        this.script = dir.resolve("receiver.py");
        this.log = dir.resolve("received.jsonl");
        Files.writeString(script, SERVER);
        Files.deleteIfExists(log);
        Runtime.getRuntime().addShutdownHook(cleanup);
        try {
            ip("netns", "add", namespace);
            ip("link", "add", hostLink, "type", "veth", "peer", "name", "fwn" + tag);
            ip("link", "set", "fwn" + tag, "netns", namespace);
            ip("addr", "add", "203.0.113." + (block * 4 + 1) + "/30", "dev", hostLink);
            ip("link", "set", hostLink, "up");
            ip("netns", "exec", namespace, "ip", "addr", "add", address + "/30", "dev", "fwn" + tag);
            ip("netns", "exec", namespace, "ip", "link", "set", "fwn" + tag, "up");
            ip("netns", "exec", namespace, "ip", "link", "set", "lo", "up");
            start();
        } catch (Exception e) {
            close();
            throw e;
        }
    }

    /** The receiver's address, on TEST-NET-3. */
    public String address() {
        return address;
    }

    /** The POSTs received so far, one JSON object a line. */
    public Path log() {
        return log;
    }

    public List<String> received() throws IOException {
        return Files.exists(log) ? Files.readAllLines(log) : List.of();
    }

    /** Starts the receiver (again) and waits until it accepts connections. */
    public synchronized void start() throws Exception {
        server = new ProcessBuilder("ip", "netns", "exec", namespace, "python3", script.toString(), certificate.toString(), key.toString(),
                log.toString()).redirectErrorStream(true).redirectOutput(script.resolveSibling("receiver.out").toFile()).start();
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(address, 443), 500);
                return;
            } catch (IOException notYet) {
                if (!server.isAlive() || System.nanoTime() > until) {
                    throw new IllegalStateException("the receiver did not start: " + Files.readString(script.resolveSibling("receiver.out")));
                }
                Thread.sleep(100);
            }
        }
    }

    /** Ends the receiver: connections to it are then refused. */
    public synchronized void stop() throws InterruptedException {
        if (server != null) {
            server.destroyForcibly();
            server.waitFor(10, TimeUnit.SECONDS);
            server = null;
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop();
        removeNamespace();
        try {
            Runtime.getRuntime().removeShutdownHook(cleanup);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs anyway
        }
    }

    /** Deleting the namespace deletes its end of the veth pair, and with it the host's end. */
    private void removeNamespace() {
        try {
            new ProcessBuilder("ip", "netns", "del", namespace).redirectErrorStream(true).start().waitFor(10, TimeUnit.SECONDS);
        } catch (IOException | InterruptedException e) {
            // nothing more to do at shutdown
        }
    }

    private static void ip(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("ip"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed: " + out);
        }
    }
}
