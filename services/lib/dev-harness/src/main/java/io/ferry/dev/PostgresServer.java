package io.ferry.dev;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * A real PostgreSQL server: either embedded (PostgreSQL binaries from Maven Central, data kept in a
 * directory across restarts) or an existing server named by a URL such as
 * {@code postgresql://user:secret@db.example:5432}.
 */
public final class PostgresServer implements AutoCloseable {

    private final String host;
    private final int port;
    private final String user;
    private final String password;
    private final Path dataDirectory;
    private final boolean durable;
    private EmbeddedPostgres embedded;

    private PostgresServer(String host, int port, String user, String password, Path dataDirectory, boolean durable) {
        this.host = host;
        this.port = port;
        this.user = user;
        this.password = password;
        this.dataDirectory = dataDirectory;
        this.durable = durable;
    }

    /**
     * Starts PostgreSQL on {@code port} (0 picks a free one) with its data in {@code dataDirectory}. A durable
     * server (the system {@code ./ferry} starts, the benchmarks) flushes every commit like a production server;
     * otherwise the embedded library's test settings stay ({@code fsync} and {@code synchronous_commit} off), which
     * only matter if the machine itself fails.
     */
    public static PostgresServer embedded(Path dataDirectory, int port, boolean durable) throws IOException {
        Files.createDirectories(dataDirectory);
        PostgresServer server = new PostgresServer("127.0.0.1", port == 0 ? FreePort.find() : port,
                "postgres", "postgres", dataDirectory, durable);
        server.start();
        return server;
    }

    /** Uses an existing server; nothing is started or stopped. */
    public static PostgresServer external(String url) {
        String normalized = url.startsWith("jdbc:") ? url.substring(5) : url;
        URI uri = URI.create(normalized);
        if (uri.getHost() == null || !uri.getScheme().startsWith("postgres")) {
            throw new IllegalArgumentException("expected postgresql://user:password@host:port, got " + url);
        }
        String user = "postgres";
        String password = "";
        if (uri.getRawUserInfo() != null) {
            String[] parts = uri.getRawUserInfo().split(":", 2);
            user = decode(parts[0]);
            password = parts.length > 1 ? decode(parts[1]) : "";
        }
        return new PostgresServer(uri.getHost(), uri.getPort() < 0 ? 5432 : uri.getPort(), user, password, null, true);
    }

    public boolean isEmbedded() {
        return dataDirectory != null;
    }

    /** (Re)starts the embedded server on the same port and data; a no-op for an external server. */
    public synchronized void start() throws IOException {
        if (!isEmbedded() || embedded != null) {
            return;
        }
        EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder();
        if (durable) {
            builder.setServerConfig("fsync", "on").setServerConfig("synchronous_commit", "on");
        }
        embedded = builder
                .setDataDirectory(dataDirectory)
                .setCleanDataDirectory(false)
                .setPort(port)
                .setPGStartupWait(Duration.ofSeconds(60))
                .setServerConfig("max_connections", "300")
                .setServerConfig("listen_addresses", "127.0.0.1")
                // Sized like a small tuned server rather than PostgreSQL's defaults: with max_wal_size 1 GB a
                // sustained ingest forced a checkpoint (and full-page images of every touched page) every 17 s.
                .setServerConfig("max_wal_size", "4GB")
                .setServerConfig("shared_buffers", "256MB")
                .start();
    }

    /** Stops the embedded server (its data stays); a no-op for an external server. */
    public synchronized void stop() throws IOException {
        if (embedded != null) {
            embedded.close();
            embedded = null;
        }
    }

    @Override
    public void close() throws IOException {
        stop();
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    public String user() {
        return user;
    }

    public String password() {
        return password;
    }

    public String jdbcUrl(String database) {
        return "jdbc:postgresql://" + host + ":" + port + "/" + database;
    }

    public String reactiveUrl(String database) {
        return "postgresql://" + host + ":" + port + "/" + database;
    }

    /** Creates {@code database} unless it exists; with {@code recreate} an existing one is dropped first. */
    public void ensureDatabase(String database, boolean recreate) throws SQLException {
        if (!database.matches("[a-z][a-z0-9_]{0,62}")) {
            throw new IllegalArgumentException("not a plain database name: " + database);
        }
        try (Connection c = DriverManager.getConnection(jdbcUrl("postgres"), user, password);
             Statement st = c.createStatement()) {
            if (recreate) {
                st.execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
            }
            var rs = st.executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + database + "'");
            if (!rs.next()) {
                st.execute("CREATE DATABASE " + database);
            }
        }
    }

    private static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }
}
