package io.ferry.dev;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Gives a {@code @QuarkusTest} the real parts a service runs on: a fresh PostgreSQL database (embedded, or on
 * the server named by {@code FERRY_TEST_DB_URL}) and a key pair whose public half the service trusts for
 * bearer tokens. One server and one key pair serve every test class of the JVM.
 */
public class FerryTestResource implements QuarkusTestResourceLifecycleManager {

    public static final String DATABASE = "ferry_test";

    private static PostgresServer server;
    private static DevKeys keys;
    private static PostgresServer.Credentials serviceRole;

    @Override
    public synchronized Map<String, String> start() {
        try {
            PostgresServer db = server();
            PostgresServer.Credentials role = databaseCredentials();
            return Map.of(
                    "ferry.db.host", db.host(),
                    "ferry.db.port", Integer.toString(db.port()),
                    "ferry.db.name", DATABASE,
                    // the service connects (and migrates) as its own role, as it does in the stack and in production
                    "ferry.db.user", role.user(),
                    "ferry.db.password", role.password(),
                    "mp.jwt.verify.publickey.location", keys().publicKeyFile().toUri().toString(),
                    "mp.jwt.verify.issuer", DevTokens.ISSUER,
                    "mp.jwt.verify.audiences", DevTokens.AUDIENCE);
        } catch (Exception e) {
            throw new IllegalStateException("cannot prepare PostgreSQL and keys for the tests", e);
        }
    }

    @Override
    public void stop() {
        // The server outlives single test classes; it stops when the JVM ends.
    }

    /**
     * The role the service under test connects as: it owns {@value #DATABASE} (created afresh once per JVM) and
     * nothing else. {@link PostgresServer#user()} is the admin, for tests that look behind the service's back.
     */
    public static synchronized PostgresServer.Credentials databaseCredentials() throws IOException, java.sql.SQLException {
        if (serviceRole == null) {
            serviceRole = server().ensureDatabase(DATABASE, true);
        }
        return serviceRole;
    }

    /** The server the tests run against, for tests that need to stop and start it. */
    public static synchronized PostgresServer server() throws IOException {
        if (server == null) {
            String external = System.getenv("FERRY_TEST_DB_URL");
            if (external != null && !external.isBlank()) {
                server = PostgresServer.external(external);
            } else {
                Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
                StaleTestServers.clear(tmp, "ferry-test-pg");
                Path root = Files.createTempDirectory("ferry-test-pg");
                StaleTestServers.claim(root);
                server = PostgresServer.embedded(root.resolve("data"), 0, false);
                PostgresServer started = server;
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    try {
                        started.close();
                    } catch (IOException ignored) {
                        // the JVM is ending anyway
                    }
                    // the embedded server's own shutdown hook may be the one stopping it, still running: wait it out
                    StaleTestServers.stopServer(root);
                    DirectoryTrees.delete(root);
                }));
            }
        }
        return server;
    }

    public static synchronized DevKeys keys() {
        if (keys == null) {
            try {
                Path dir = Files.createTempDirectory("ferry-test-keys");
                keys = DevKeys.loadOrCreate(dir);
                Runtime.getRuntime().addShutdownHook(new Thread(() -> DirectoryTrees.delete(dir)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return keys;
    }

    /** A bearer token signed by the key the service under test trusts. */
    public static String token(DevTokens.Claims claims) {
        return new DevTokens(keys()).mint(claims);
    }

    public static String token(String vo, String scope) {
        return token(DevTokens.Claims.of("test-user", vo, scope));
    }

}
