package io.ferry.dev;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;

/**
 * A real PostgreSQL server: either embedded (PostgreSQL binaries from Maven Central, data kept in a
 * directory across restarts) or an existing server named by a URL such as
 * {@code postgresql://user:secret@db.example:5432}.
 *
 * <p>{@link #user()} and {@link #password()} are the admin's (the embedded server's superuser, or the URL's user):
 * only the harness and tests use them, to create roles and databases. Services get the credentials
 * {@link #ensureDatabase} returns: a role of their own that owns their database and nothing else. The embedded
 * server listens on 127.0.0.1 only and asks every connection for a password (SCRAM; no {@code trust}); its generated
 * passwords are kept, readable only by the user, in {@value #PASSWORDS_FILE} next to the data directory.
 */
public final class PostgresServer implements AutoCloseable {

    /** The embedded server's password file, beside its data directory (for {@code ./ferry up}: {@code .ferry/}). */
    public static final String PASSWORDS_FILE = "postgres-passwords.properties";
    static final String SUPERUSER = "postgres";

    /** A login role and its password. */
    public record Credentials(String user, String password) {
        @Override
        public String toString() {
            return "Credentials[user=" + user + ", password=***]";
        }
    }

    private final String host;
    private final int port;
    private final String user;
    private final String password;
    private final Path dataDirectory;
    private final boolean durable;
    private final PostgresPasswords passwords;
    private boolean passwordIsNew;
    private ServiceDatabases.AdminRights adminRights;
    private EmbeddedPostgres embedded;

    private PostgresServer(String host, int port, String user, PostgresPasswords passwords, String password,
                           Path dataDirectory, boolean durable) {
        this.host = host;
        this.port = port;
        this.user = user;
        this.passwords = passwords;
        this.password = password;
        this.passwordIsNew = passwords.superuserIsNew();
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
        PostgresPasswords passwords = PostgresPasswords.loadOrCreate(dataDirectory.toAbsolutePath().resolveSibling(PASSWORDS_FILE));
        PostgresServer server = new PostgresServer("127.0.0.1", port == 0 ? FreePort.find() : port,
                SUPERUSER, passwords, passwords.superuser(), dataDirectory, durable);
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
        return new PostgresServer(uri.getHost(), uri.getPort() < 0 ? 5432 : uri.getPort(), user, PostgresPasswords.inMemory(),
                password, null, true);
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
        // diagnostics, e.g. FERRY_PG_PRELOAD=pg_stat_statements: transfer-bench.sh then prints the statements per file
        if (System.getenv("FERRY_PG_PRELOAD") != null) {
            builder.setServerConfig("shared_preload_libraries", System.getenv("FERRY_PG_PRELOAD"));
            if (System.getenv("FERRY_PG_PRELOAD").contains("pg_stat_statements")) {
                builder.setServerConfig("pg_stat_statements.track_planning", "on");
            }
        }
        boolean setPassword = passwordIsNew;
        embedded = builder
                .setOverrideWorkingDirectory(PostgresBinaries.workingDirectory().toFile())
                .setDataDirectoryCustomizer(dir -> {
                    try {
                        PostgresAuthentication.apply(dir.toPath(), user, password, setPassword);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                })
                // the library's own readiness check logs in as the superuser
                .setConnectConfig("password", password)
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
                .setServerConfig("password_encryption", "scram-sha-256")
                .start();
        passwordIsNew = false;
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

    /**
     * Creates {@code database} unless it exists (with {@code recreate} an existing one is dropped first), owned by a
     * role of the same name, and returns that role's credentials: what the service using the database connects as.
     * The role is no superuser and may not create databases or roles, and no other role may connect to the database.
     * An external admin without the right to create roles (neither superuser nor CREATEROLE) keeps the behaviour of
     * older versions: the database is the admin's own, and the admin's credentials are returned.
     */
    public synchronized Credentials ensureDatabase(String database, boolean recreate) throws SQLException {
        if (!database.matches("[a-z][a-z0-9_]{0,62}")) {
            throw new IllegalArgumentException("not a plain database name: " + database);
        }
        ServiceDatabases databases = new ServiceDatabases(this);
        if (adminRights == null) {
            adminRights = databases.adminRights();
            if (!adminRights.canCreateRoles()) {
                System.err.println("ferry: " + user + " may not create roles on " + host + ":" + port
                        + "; every service connects as " + user + " (give it CREATEROLE for one role per service)");
            }
        }
        if (!adminRights.canCreateRoles()) {
            databases.ensureOwnedByAdmin(database, recreate);
            return new Credentials(user, password);
        }
        String rolePassword;
        try {
            rolePassword = passwords.forRole(database);
        } catch (IOException e) {
            throw new SQLException("cannot keep the password of role " + database, e);
        }
        databases.ensure(database, rolePassword, recreate, adminRights);
        return new Credentials(database, rolePassword);
    }

    /** Where the embedded server's passwords are kept; {@code null} for an external server. */
    public Path passwordsFile() {
        return passwords.file();
    }

    private static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }
}
