package io.ferry.dev;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * A real nginx (Debian's, with its WebDAV module) on a loopback port serving storage elements: {@code /se-a/},
 * {@code /se-b/}; {@code /se-c/}, which answers 503 while the file {@code se-c.down} exists in the root (an SE in
 * maintenance); {@code /slow/}, which sends at most 256 KiB/s per connection (a link whose capacity the test sets);
 * and {@code /flaky/} answering 503. Started per test class; stopped on close. Needs Debian's nginx-light (its
 * WebDAV module); {@code .ci/run} installs it. With {@link Tls} the same storage is also served over HTTPS on a second
 * port, and that port wants a client certificate signed by the given CA. With bearer locations, each named location
 * ({@code /tok-a/}, say) is an SE that answers 401 unless the request's {@code Authorization} is {@code Bearer }
 * one of the tokens the test gave for it (an nginx {@code map} of the header: nginx-light has no token verifier).
 */
public final class NginxWebDav implements AutoCloseable {

    public final Path root;
    public final int port;
    /** The HTTPS port, or -1 without TLS. */
    public final int tlsPort;
    private final Process master;

    /**
     * The server's certificate and key, and the CA whose client certificates the HTTPS port wants (PEM files; null:
     * it asks for none, as an SE that takes bearer tokens only).
     */
    public record Tls(Path certificate, Path key, Path clientCa) {
    }

    public NginxWebDav() throws Exception {
        this(null);
    }

    public NginxWebDav(Tls tls) throws Exception {
        this(tls, Map.of());
    }

    /**
     * @param bearerLocations location name (a directory below the root, such as {@code tok-a}) → the bearer tokens
     *                        it accepts; every request there without one of them is refused with 401
     */
    public NginxWebDav(Tls tls, Map<String, Set<String>> bearerLocations) throws Exception {
        this(tls, bearerLocations, FreePort.find());
    }

    /** The same on {@code port}: for tokens minted beforehand whose audience names this SE's URL. */
    public NginxWebDav(Tls tls, Map<String, Set<String>> bearerLocations, int port) throws Exception {
        root = Files.createTempDirectory("ferry-nginx");
        Files.createDirectories(root.resolve("www/se-a"));
        Files.createDirectories(root.resolve("www/se-b"));
        Files.createDirectories(root.resolve("www/se-c"));
        Files.createDirectories(root.resolve("www/slow"));
        Files.createDirectories(root.resolve("tmp"));
        this.port = port;
        tlsPort = tls == null ? -1 : FreePort.find();
        boolean root_ = "root".equals(System.getProperty("user.name"));
        // a map's keys (whole header values: JWTs are hundreds of bytes) must fit its hash buckets
        int longest = bearerLocations.values().stream().flatMap(Set::stream).mapToInt(String::length).max().orElse(0) + 16;
        StringBuilder maps = new StringBuilder(bearerLocations.isEmpty() ? ""
                : "  map_hash_bucket_size " + Integer.highestOneBit(Math.max(64, longest) * 2 - 1) + ";\n");
        StringBuilder guarded = new StringBuilder();
        int n = 0;
        for (Map.Entry<String, Set<String>> location : new TreeMap<>(bearerLocations).entrySet()) {
            if (!location.getKey().matches("[a-z0-9-]+")) {
                throw new IllegalArgumentException("a location name is lower-case letters, digits and '-': " + location.getKey());
            }
            Files.createDirectories(root.resolve("www").resolve(location.getKey()));
            String flag = "$ferry_bearer_" + n++;
            maps.append("  map $http_authorization ").append(flag).append(" {\n    default 0;\n");
            for (String token : location.getValue()) {
                if (!token.matches("[A-Za-z0-9._~+/=-]+")) {
                    throw new IllegalArgumentException("a test token is base64url text and dots");
                }
                maps.append("    \"Bearer ").append(token).append("\" 1;\n");
            }
            maps.append("  }\n");
            guarded.append("    location /").append(location.getKey()).append("/ { if (").append(flag).append(" = 0) { return 401; }\n")
                    .append("      dav_methods PUT DELETE MKCOL; dav_access user:rw group:r all:r; create_full_put_path off; }\n");
        }
        String storage = "    root " + root.resolve("www") + ";\n" + guarded
                + "    client_max_body_size 0;\n    location /flaky/ { return 503; }\n"
                + "    location /se-c/ { if (-f " + root.resolve("se-c.down") + ") { return 503; }\n"
                + "      dav_methods PUT DELETE MKCOL; dav_access user:rw group:r all:r; }\n"
                + "    location /slow/ { limit_rate 256k; dav_methods PUT DELETE MKCOL; dav_access user:rw group:r all:r; }\n"
                + "    location / { dav_methods PUT DELETE MKCOL; dav_access user:rw group:r all:r; create_full_put_path off; }\n";
        String conf = (root_ ? "user root;\n" : "") + "worker_processes 2;\ndaemon off;\nerror_log " + root.resolve("error.log") + ";\n"
                + "pid " + root.resolve("nginx.pid") + ";\nevents { worker_connections 256; }\nhttp {\n"
                // what tests observe of the requests: method, path and the headers a copy is to carry
                + "  log_format ferry '$request_method $uri scitag=$http_scitag';\n  access_log " + root.resolve("access.log") + " ferry;\n"
                + "  log_format archive '$request_method $uri archive=$http_archivemetadata';\n  access_log " + root.resolve("archive.log")
                + " archive;\n"
                + "  log_format bearer '$request_method $uri $http_authorization';\n  access_log " + root.resolve("bearer.log") + " bearer;\n"
                + "  client_body_temp_path " + root.resolve("tmp") + ";\n  proxy_temp_path " + root.resolve("tmp") + ";\n"
                + "  fastcgi_temp_path " + root.resolve("tmp") + ";\n  uwsgi_temp_path " + root.resolve("tmp") + ";\n"
                + "  scgi_temp_path " + root.resolve("tmp") + ";\n" + maps
                + "  server {\n    listen 127.0.0.1:" + port + ";\n" + storage + "  }\n"
                + (tls == null ? "" : "  server {\n    listen 127.0.0.1:" + tlsPort + " ssl;\n"
                + "    ssl_certificate " + tls.certificate() + ";\n    ssl_certificate_key " + tls.key() + ";\n"
                + (tls.clientCa() == null ? "" : "    ssl_client_certificate " + tls.clientCa() + ";\n    ssl_verify_client on;\n")
                + storage + "  }\n")
                + "}\n";
        Path file = root.resolve("nginx.conf");
        Files.writeString(file, conf);
        String nginx = Files.isExecutable(Path.of("/usr/sbin/nginx")) ? "/usr/sbin/nginx" : "nginx";
        master = new ProcessBuilder(nginx, "-c", file.toString(), "-p", root.toString()).redirectErrorStream(true)
                .redirectOutput(root.resolve("stdout.log").toFile()).start();
        FreePort.awaitListening(master, port, 10_000, () -> "nginx did not start (Debian's nginx-light is needed): "
                + Files.readString(root.resolve("stdout.log"))
                + (Files.exists(root.resolve("error.log")) ? Files.readString(root.resolve("error.log")) : ""));
    }

    /** CPU time nginx's master and workers have used so far (benchmarks tell what each copy cost the server). */
    public long cpuMillis() {
        return ProcessCpu.millis(master.toHandle());
    }

    public String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }

    /** The same storage over HTTPS (needs {@link Tls}); by name, as a certificate names its host. */
    public String httpsUrl(String path) {
        return "https://localhost:" + tlsPort + path;
    }


    /**
     * The requests served so far, one line each as {@code METHOD /path scitag=<its SciTag header, or ->}, oldest
     * first (a request's line is written once its answer has gone).
     */
    public java.util.List<String> requests() throws IOException {
        Path log = root.resolve("access.log");
        return Files.exists(log) ? Files.readAllLines(log) : java.util.List.of();
    }

    /**
     * The requests served so far, one line each as {@code METHOD /path archive=<its ArchiveMetadata header, or ->},
     * oldest first.
     */
    public java.util.List<String> archiveMetadataRequests() throws IOException {
        Path log = root.resolve("archive.log");
        return Files.exists(log) ? Files.readAllLines(log) : java.util.List.of();
    }

    /**
     * The requests served so far, one line each as {@code METHOD /path <its Authorization header, or ->}, oldest
     * first: which bearer token reached the SE (a test SE's log; a real one never logs them).
     */
    public java.util.List<String> authorizedRequests() throws IOException {
        Path log = root.resolve("bearer.log");
        return Files.exists(log) ? Files.readAllLines(log) : java.util.List.of();
    }

    /** Where nginx keeps request bodies while they arrive (a partial upload lives here, never under www/). */
    public Path uploadsInProgress() {
        return root.resolve("tmp");
    }

    public Path file(String path) {
        return root.resolve("www").resolve(path.startsWith("/") ? path.substring(1) : path);
    }

    @Override
    public void close() throws Exception {
        master.destroy();
        master.waitFor(10, TimeUnit.SECONDS);
        DirectoryTrees.delete(root);
    }
}
