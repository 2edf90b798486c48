package io.ferry.dev;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The embedded PostgreSQL as another local user of a shared host would attack it: no way in without a password,
 * a service's role confined to its own database and unable to run programs, secrets readable by the owner only.
 */
class PostgresServerTest {

    static Path root;
    static PostgresServer server;

    @BeforeAll
    static void start() throws Exception {
        root = Files.createTempDirectory("ferry-pg-attack");
        server = PostgresServer.embedded(root.resolve("pgdata"), 0, false);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
        DirectoryTrees.delete(root);
    }

    @Test
    void noWayInWithoutThePassword() throws Exception {
        for (String user : new String[] {"postgres", "ferry_scheduler", System.getProperty("user.name")}) {
            assertRefused(() -> DriverManager.getConnection(server.jdbcUrl("postgres"), user, ""), user + " without a password");
            assertRefused(() -> DriverManager.getConnection(server.jdbcUrl("postgres"), user, "postgres"), user + " with a guess");
        }
        try (Connection c = admin("postgres"); Statement st = c.createStatement()) {
            assertEquals(0, count(st, "SELECT count(*) FROM pg_hba_file_rules WHERE auth_method <> 'scram-sha-256'"),
                    "every pg_hba rule asks for a SCRAM password (no trust, no md5, no peer)");
            assertEquals("127.0.0.1", value(st, "SHOW listen_addresses"));
        }
    }

    @Test
    void aServiceRoleOwnsItsDatabaseAndNothingElse() throws Exception {
        PostgresServer.Credentials scheduler = server.ensureDatabase("ferry_scheduler", false);
        PostgresServer.Credentials resolver = server.ensureDatabase("ferry_resolver", false);
        assertEquals("ferry_scheduler", scheduler.user());
        assertNotEquals(server.password(), scheduler.password());
        assertNotEquals(scheduler.password(), resolver.password());

        assertRefused(() -> DriverManager.getConnection(server.jdbcUrl("ferry_resolver"), scheduler.user(), scheduler.password()),
                "the scheduler's role in the resolver's database");
        assertRefused(() -> DriverManager.getConnection(server.jdbcUrl("postgres"), scheduler.user(), scheduler.password()),
                "the scheduler's role in the maintenance database");
        assertRefused(() -> DriverManager.getConnection(server.jdbcUrl("ferry_scheduler"), scheduler.user(), resolver.password()),
                "the scheduler's role with the resolver's password");

        try (Connection c = DriverManager.getConnection(server.jdbcUrl("ferry_scheduler"), scheduler.user(), scheduler.password());
             Statement st = c.createStatement()) {
            // what Flyway does as the service: tables, a function and a trigger in its own database
            st.execute("CREATE TABLE IF NOT EXISTS probe (id bigserial PRIMARY KEY, v text)");
            st.execute("CREATE OR REPLACE FUNCTION probe_touch() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$");
            st.execute("INSERT INTO probe (v) VALUES ('x')");

            assertRefused(() -> st.execute("COPY (SELECT 1) TO PROGRAM 'true'"), "COPY TO PROGRAM");
            assertRefused(() -> st.execute("COPY probe FROM '/etc/passwd'"), "COPY FROM a server file");
            assertRefused(() -> st.execute("CREATE DATABASE stolen"), "CREATE DATABASE");
            assertRefused(() -> st.execute("CREATE ROLE intruder LOGIN SUPERUSER"), "CREATE ROLE");
            assertRefused(() -> st.execute("ALTER ROLE ferry_scheduler SUPERUSER"), "making itself superuser");
            assertRefused(() -> st.execute("ALTER SYSTEM SET log_statement = 'all'"), "ALTER SYSTEM");
            assertRefused(() -> st.execute("SELECT pg_read_file('postgresql.conf')"), "reading server files");
            try (ResultSet rs = st.executeQuery("SELECT rolsuper, rolcreatedb, rolcreaterole, rolreplication, rolbypassrls"
                    + " FROM pg_roles WHERE rolname = current_user")) {
                rs.next();
                for (int i = 1; i <= 5; i++) {
                    assertFalse(rs.getBoolean(i), "attribute " + i + " of the service role");
                }
            }
        }
    }

    @Test
    void theTestResourceHandsServicesTheirOwnRoleNotTheSuperuser() throws Exception {
        Map<String, String> config = new FerryTestResource().start();
        String user = config.get("ferry.db.user");
        String password = config.get("ferry.db.password");
        PostgresServer shared = FerryTestResource.server();
        assertNotEquals(shared.user(), user);
        try (Connection c = DriverManager.getConnection(shared.jdbcUrl(config.get("ferry.db.name")), user, password);
             Statement st = c.createStatement()) {
            assertRefused(() -> st.execute("COPY (SELECT 1) TO PROGRAM 'true'"), "COPY TO PROGRAM as the tested service");
        }
    }

    @Test
    void thePasswordsFileIsTheOwnersAloneAndSurvivesARestart() throws Exception {
        Path file = root.resolve(PostgresServer.PASSWORDS_FILE);
        assertEquals(file, server.passwordsFile());
        PostgresServer.Credentials profiles = server.ensureDatabase("ferry_profiles", false);
        assertEquals(PosixFilePermissions.fromString("rw-------"), Files.getPosixFilePermissions(file));
        Properties stored = new Properties();
        try (var r = Files.newBufferedReader(file)) {
            stored.load(r);
        }
        assertEquals(server.password(), stored.getProperty("superuser"));
        assertEquals(profiles.password(), stored.getProperty("role.ferry_profiles"));

        server.close();
        PostgresServer again = PostgresServer.embedded(root.resolve("pgdata"), server.port(), false);
        try {
            assertEquals(server.password(), again.password(), "the same state directory keeps its passwords");
            assertEquals(profiles, again.ensureDatabase("ferry_profiles", false));
            try (Connection c = DriverManager.getConnection(again.jdbcUrl("ferry_profiles"), profiles.user(), profiles.password())) {
                assertTrue(c.isValid(2));
            }
        } finally {
            again.close();
            server = PostgresServer.embedded(root.resolve("pgdata"), server.port(), false);
        }
    }

    @Test
    void aDataDirectoryFromBeforeIsLockedAndHandedToTheServiceRoles() throws Exception {
        Path legacy = Files.createTempDirectory("ferry-pg-legacy");
        try {
            // what older versions left: initdb -A trust, the service's tables created by the superuser
            int port = FreePort.find();
            try (EmbeddedPostgres old = EmbeddedPostgres.builder().setDataDirectory(legacy.resolve("pgdata"))
                    .setCleanDataDirectory(false).setPort(port).setServerConfig("listen_addresses", "127.0.0.1").start()) {
                try (Connection c = old.getPostgresDatabase().getConnection(); Statement st = c.createStatement()) {
                    st.execute("CREATE DATABASE ferry_rates");
                }
                try (Connection c = old.getDatabase("postgres", "ferry_rates").getConnection(); Statement st = c.createStatement()) {
                    st.execute("CREATE TABLE records (id bigserial PRIMARY KEY, vo text)");
                    st.execute("CREATE VIEW by_vo AS SELECT vo, count(*) FROM records GROUP BY vo");
                    st.execute("CREATE FUNCTION f() RETURNS int LANGUAGE sql AS 'SELECT 1'");
                }
            }
            try (PostgresServer upgraded = PostgresServer.embedded(legacy.resolve("pgdata"), port, false)) {
                assertRefused(() -> DriverManager.getConnection(upgraded.jdbcUrl("postgres"), "postgres", ""), "trust is gone");
                PostgresServer.Credentials rates = upgraded.ensureDatabase("ferry_rates", false);
                try (Connection c = DriverManager.getConnection(upgraded.jdbcUrl("ferry_rates"), rates.user(), rates.password());
                     Statement st = c.createStatement()) {
                    st.execute("INSERT INTO records (vo) VALUES ('atlas')");
                    st.execute("ALTER TABLE records ADD COLUMN site text"); // a later migration, as the service
                    assertEquals(1, count(st, "SELECT count(*) FROM by_vo"));
                    assertEquals(1, count(st, "SELECT f()"));
                }
            }
            assertEquals(Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE),
                    Files.getPosixFilePermissions(legacy.resolve(PostgresServer.PASSWORDS_FILE)));
        } finally {
            DirectoryTrees.delete(legacy);
        }
    }

    @Test
    void anExternalServerNamedByUrlGetsOneRolePerService() throws Exception {
        PostgresServer external = PostgresServer.external(
                "postgresql://postgres:" + server.password() + "@127.0.0.1:" + server.port());
        assertFalse(external.isEmbedded());
        PostgresServer.Credentials aggregator = external.ensureDatabase("ferry_rates_ext", true);
        assertEquals("ferry_rates_ext", aggregator.user());
        try (Connection c = DriverManager.getConnection(external.jdbcUrl("ferry_rates_ext"), aggregator.user(), aggregator.password());
             Statement st = c.createStatement()) {
            st.execute("CREATE TABLE t (id int)");
            assertRefused(() -> st.execute("COPY (SELECT 1) TO PROGRAM 'true'"), "COPY TO PROGRAM on the external server");
        }
    }

    @Test
    void anExternalAdminWithCreateRoleButNoSuperuserStillSeparatesTheServices() throws Exception {
        allowLogin("ferry_ops", "CREATEROLE CREATEDB");
        allowLogin("ferry_dbonly", "CREATEDB");
        PostgresServer ops = PostgresServer.external("postgresql://ferry_ops:ops-pw@127.0.0.1:" + server.port());
        PostgresServer.Credentials profiles = ops.ensureDatabase("ferry_profiles_ops", true);
        assertEquals("ferry_profiles_ops", profiles.user());
        try (Connection c = DriverManager.getConnection(ops.jdbcUrl("ferry_profiles_ops"), profiles.user(), profiles.password());
             Statement st = c.createStatement()) {
            st.execute("CREATE TABLE hosts (name text)");
            assertRefused(() -> st.execute("CREATE ROLE intruder LOGIN"), "CREATE ROLE by the service role");
        }
        // without CREATEROLE: the behaviour of older versions (the admin's own database and credentials)
        PostgresServer dbOnly = PostgresServer.external("postgresql://ferry_dbonly:dbonly-pw@127.0.0.1:" + server.port());
        assertEquals(new PostgresServer.Credentials("ferry_dbonly", "dbonly-pw"), dbOnly.ensureDatabase("ferry_rates_dbonly", true));
    }

    /** Lets {@code role} (created with {@code attributes}) log in to every database, as an external server would. */
    private static void allowLogin(String role, String attributes) throws Exception {
        Path hba = root.resolve("pgdata/pg_hba.conf");
        String rule = "host all " + role + " 127.0.0.1/32 scram-sha-256\n";
        if (!Files.readString(hba).contains(rule)) {
            Files.writeString(hba, Files.readString(hba) + rule);
        }
        try (Connection c = admin("postgres"); Statement st = c.createStatement()) {
            if (count(st, "SELECT count(*) FROM pg_roles WHERE rolname = '" + role + "'") == 0) {
                st.execute("CREATE ROLE " + role + " LOGIN " + attributes + " PASSWORD '" + role.substring(6) + "-pw'");
            }
            st.execute("SELECT pg_reload_conf()");
        }
    }

    @Test
    void theBinariesAreUnpackedWhereOnlyTheUserCanReachThem() throws Exception {
        Path parent = PostgresBinaries.workingDirectory().getParent();
        Set<PosixFilePermission> mode = Files.getPosixFilePermissions(parent);
        assertEquals(PosixFilePermissions.fromString("rwx------"), mode, parent.toString());
        assertTrue(PostgresBinaries.postgresFor(root.resolve("pgdata")).startsWith(PostgresBinaries.workingDirectory()));
    }

    private static Connection admin(String database) throws SQLException {
        return DriverManager.getConnection(server.jdbcUrl(database), server.user(), server.password());
    }

    private static long count(Statement st, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static String value(Statement st, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    interface Attempt {
        Object run() throws SQLException;
    }

    private static void assertRefused(Attempt attempt, String what) {
        SQLException e = assertThrows(SQLException.class, () -> {
            Object result = attempt.run();
            if (result instanceof Connection c) {
                c.close();
            }
        }, what + " must be refused");
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        // 28xxx: authentication failed / no pg_hba entry; 42501: insufficient privilege; 08004 with an empty password:
        // the server asked for one (the driver will not even send an empty one)
        boolean askedForPassword = state.equals("08004") && String.valueOf(e.getMessage()).contains("server requested SCRAM");
        assertTrue(state.startsWith("28") || state.equals("42501") || askedForPassword, what + ": " + state + " " + e.getMessage());
    }
}
