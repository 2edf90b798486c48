package io.ferry.dev;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real S3 server for tests: s3proxy (org.gaul:s3proxy, its jar-with-dependencies) with jclouds' filesystem
 * backend, run as its own JVM so its Jetty and jclouds stay off the services' class path. One account
 * ({@link #IDENTITY}/{@link #CREDENTIAL}) signs with AWS Signature Version 2 or 4; each bucket is a directory below
 * {@link #data}. Plain HTTP on {@link #port}; with {@link TestCertificates} also HTTPS on {@link #tlsPort}, with the
 * test PKI's server certificate (localhost, 127.0.0.1). Started by {@link #virtualHost}, it also takes the bucket
 * from the Host header ({@code bucket.domain}) and logs every request it is sent, Host included, for
 * {@link #requestLines}. The jar's path comes from the system property {@value #JAR_PROPERTY}, which a module's build
 * sets to the copy the dependency plugin made.
 */
public final class S3Server implements AutoCloseable {

    public static final String JAR_PROPERTY = "ferry.s3proxy.jar";
    public static final String IDENTITY = "ferry-test";
    public static final String CREDENTIAL = "ferry-test-secret";
    /** What s3proxy 4.1's debug log says of a request: {@code {PUT@1d4ab48f http://host:port/path?query HTTP/1.1}}. */
    private static final Pattern REQUEST_LINE = Pattern.compile("\\] request: .*\\{([A-Z]+)@[0-9a-f]+ (\\S+) HTTP/[0-9.]+}");

    public final Path dir;
    public final Path data;
    public final int port;
    /** The HTTPS port, or -1 without TLS. */
    public final int tlsPort;
    /** The domain whose subdomains name buckets, or null: path style only. */
    public final String virtualHost;
    private final Process process;
    /** Stops the server with a test JVM that ends without closing it: a JVM left running would hold its heap for good. */
    private final Thread stopAtExit;

    /** Plain HTTP serving {@code buckets} (made empty). */
    public S3Server(String... buckets) throws Exception {
        this(null, buckets);
    }

    /** With {@code tls} non-null, HTTPS too. */
    public S3Server(TestCertificates tls, String... buckets) throws Exception {
        this(tls, null, buckets);
    }

    /**
     * Plain HTTP that also answers virtual-host style on {@code domain}: a request for {@code bucket.domain} is for
     * that bucket, one for {@code domain} names its bucket in the path, and one for any other host (such as
     * 127.0.0.1) takes the whole host for the bucket's name. The test JVM must resolve {@code bucket.domain}
     * itself (a {@code jdk.net.hosts.file}).
     */
    public static S3Server virtualHost(String domain, String... buckets) throws Exception {
        return new S3Server(null, domain, buckets);
    }

    private S3Server(TestCertificates tls, String virtualHost, String... buckets) throws Exception {
        String jar = System.getProperty(JAR_PROPERTY);
        if (jar == null || !Files.isRegularFile(Path.of(jar))) {
            throw new IllegalStateException("no s3proxy jar: set " + JAR_PROPERTY + " (the movers module's build copies it), not " + jar);
        }
        this.dir = Files.createTempDirectory("ferry-s3");
        this.data = Files.createDirectories(dir.resolve("data"));
        for (String bucket : buckets) {
            Files.createDirectories(data.resolve(bucket));
        }
        this.port = FreePort.find();
        this.virtualHost = virtualHost;
        StringBuilder config = new StringBuilder()
                .append("s3proxy.endpoint=http://127.0.0.1:").append(port).append('\n')
                .append("s3proxy.authorization=aws-v2-or-v4\n")
                .append("s3proxy.identity=").append(IDENTITY).append('\n')
                .append("s3proxy.credential=").append(CREDENTIAL).append('\n')
                .append("jclouds.provider=filesystem\n")
                .append("jclouds.filesystem.basedir=").append(data).append('\n');
        if (virtualHost != null) {
            config.append("s3proxy.virtual-host=").append(virtualHost).append('\n');
        }
        if (tls != null) {
            this.tlsPort = FreePort.find();
            Path keystore = dir.resolve("server.p12");
            openssl("pkcs12", "-export", "-in", tls.serverCertificate().toString(), "-inkey", tls.serverKey().toString(),
                    "-name", "server", "-out", keystore.toString(), "-passout", "pass:ferry-test");
            config.append("s3proxy.secure-endpoint=https://127.0.0.1:").append(tlsPort).append('\n')
                    .append("s3proxy.keystore-path=").append(keystore).append('\n')
                    .append("s3proxy.keystore-password=ferry-test\n");
        } else {
            this.tlsPort = -1;
        }
        Path properties = dir.resolve("s3proxy.conf");
        Files.writeString(properties, config);
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-jar", jar, "--properties", properties.toString()));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(dir.resolve("s3proxy.log").toFile());
        if (virtualHost != null) {
            builder.environment().put("LOG_LEVEL", "debug");  // s3proxy's logback.xml: the handler logs each request at debug
        }
        process = builder.start();
        stopAtExit = new Thread(process::destroyForcibly, "s3proxy-stop");
        Runtime.getRuntime().addShutdownHook(stopAtExit);
        try {
            FreePort.awaitListening(process, port, 60_000, () -> "s3proxy did not start: " + log());
            if (tlsPort > 0) {
                FreePort.awaitListening(process, tlsPort, 60_000, () -> "s3proxy did not open its HTTPS port: " + log());
            }
        } catch (Exception | Error e) {
            close();
            throw e;
        }
    }

    /** An s3:// URL on the plain port: {@code path} is /bucket/key, already encoded as a storage URL's path. */
    public String url(String path) {
        return "s3://127.0.0.1:" + port + path;
    }

    /** An s3s:// URL on the HTTPS port, by the name its certificate carries. */
    public String tlsUrl(String path) {
        return "s3s://localhost:" + tlsPort + path;
    }

    /** An s3:// URL naming the virtual host's domain: {@code path} is /bucket/key, as for {@link #url}. */
    public String virtualHostUrl(String path) {
        if (virtualHost == null) {
            throw new IllegalStateException("started without a virtual host");
        }
        return "s3://" + virtualHost + ":" + port + path;
    }

    /**
     * Each request the server was sent so far, as {@code METHOD http://host:port/path?query} with the Host header it
     * carried; only for a server started by {@link #virtualHost}, which logs them.
     */
    public List<String> requestLines() throws IOException {
        if (virtualHost == null) {
            throw new IllegalStateException("only a virtual-host server logs its requests");
        }
        List<String> lines = new ArrayList<>();
        Matcher m = REQUEST_LINE.matcher(log());
        while (m.find()) {
            lines.add(m.group(1) + " " + m.group(2));
        }
        return lines;
    }

    /** Where the filesystem backend keeps a bucket's objects. */
    public Path bucket(String bucket) {
        return data.resolve(bucket);
    }

    /** What s3proxy logged. */
    public String log() throws IOException {
        Path log = dir.resolve("s3proxy.log");
        return Files.exists(log) ? Files.readString(log) : "";
    }

    private void openssl(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("openssl"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("openssl " + String.join(" ", args) + " failed: " + out);
        }
    }

    @Override
    public void close() throws Exception {
        if (stopAtExit != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(stopAtExit);
            } catch (IllegalStateException exiting) {
                // the JVM is ending: the hook stops the server itself
            }
        }
        if (process != null) {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        }
        DirectoryTrees.delete(dir);
    }
}
