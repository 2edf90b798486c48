package io.ferry.dev;

import org.postgresql.PGConnection;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * One database per service, owned by a role of the same name that can do nothing else: no superuser, no CREATEDB,
 * no CREATEROLE, no connection to other databases (CONNECT is revoked from PUBLIC). The service's Flyway runs as that
 * role: owning the database and its {@code public} schema, it may create its tables. Run as the server's admin.
 */
final class ServiceDatabases {

    private final PostgresServer server;

    ServiceDatabases(PostgresServer server) {
        this.server = server;
    }

    /** What the admin may do: with superuser or CREATEROLE, per-service roles; otherwise only its own account. */
    record AdminRights(boolean superuser, boolean createRole) {
        boolean canCreateRoles() {
            return superuser || createRole;
        }
    }

    AdminRights adminRights() throws SQLException {
        try (Connection c = adminConnection("postgres"); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT rolsuper, rolcreaterole FROM pg_roles WHERE rolname = current_user")) {
            rs.next();
            return new AdminRights(rs.getBoolean(1), rs.getBoolean(2));
        }
    }

    /** Creates (or repairs) role {@code name} with {@code password} and database {@code name} owned by it. */
    void ensure(String name, String password, boolean recreate, AdminRights rights) throws SQLException {
        String role = quote(name);
        try (Connection c = adminConnection("postgres"); Statement st = c.createStatement()) {
            if (recreate) {
                st.execute("DROP DATABASE IF EXISTS " + role + " WITH (FORCE)");
            }
            String limits = " LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS";
            if (exists(st, "SELECT 1 FROM pg_roles WHERE rolname = '" + name + "'")) {
                st.execute("ALTER ROLE " + role + limits);
            } else {
                st.execute("CREATE ROLE " + role + limits);
            }
            // the verifier is computed here: the password itself never reaches the server or its logs
            c.unwrap(PGConnection.class).alterUserPassword(name, password.toCharArray(), "scram-sha-256");
            if (!rights.superuser()) {
                st.execute("GRANT " + role + " TO CURRENT_USER"); // a non-superuser may only hand a database to a role it is in
            }
            if (exists(st, "SELECT 1 FROM pg_database WHERE datname = '" + name + "'")) {
                st.execute("ALTER DATABASE " + role + " OWNER TO " + role);
            } else {
                st.execute("CREATE DATABASE " + role + " OWNER " + role);
            }
            st.execute("REVOKE ALL ON DATABASE " + role + " FROM PUBLIC");
        }
        if (rights.superuser()) {
            handOverSchema(name);
        }
    }

    /** Without rights to create roles: the database as before, owned by the admin, but closed to other roles. */
    void ensureOwnedByAdmin(String name, boolean recreate) throws SQLException {
        try (Connection c = adminConnection("postgres"); Statement st = c.createStatement()) {
            if (recreate) {
                st.execute("DROP DATABASE IF EXISTS " + quote(name) + " WITH (FORCE)");
            }
            if (!exists(st, "SELECT 1 FROM pg_database WHERE datname = '" + name + "'")) {
                st.execute("CREATE DATABASE " + quote(name));
            }
            st.execute("REVOKE ALL ON DATABASE " + quote(name) + " FROM PUBLIC");
        }
    }

    /**
     * Gives the role the {@code public} schema (PostgreSQL 14 lets every role create objects in it) and everything
     * in it that someone else owns: tables, views, sequences and functions that older versions of the stack created
     * while the services connected as the superuser.
     */
    private void handOverSchema(String name) throws SQLException {
        try (Connection c = adminConnection(name); Statement st = c.createStatement()) {
            st.execute("ALTER SCHEMA public OWNER TO " + quote(name));
            st.execute("REVOKE ALL ON SCHEMA public FROM PUBLIC");
            st.execute("""
                    DO $$
                    DECLARE r record;
                    BEGIN
                      FOR r IN SELECT c.oid::regclass AS obj, CASE c.relkind WHEN 'v' THEN 'VIEW'
                                 WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'S' THEN 'SEQUENCE' ELSE 'TABLE' END AS kind
                               FROM pg_class c
                               WHERE c.relnamespace = 'public'::regnamespace AND c.relowner <> '%1$s'::regrole
                                 AND (c.relkind IN ('r', 'p', 'v', 'm')
                                      OR (c.relkind = 'S' AND NOT EXISTS (SELECT 1 FROM pg_depend d
                                          WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype IN ('a', 'i'))))
                      LOOP
                        EXECUTE format('ALTER %%s %%s OWNER TO %%I', r.kind, r.obj, '%1$s');
                      END LOOP;
                      FOR r IN SELECT p.oid::regprocedure AS obj FROM pg_proc p
                               WHERE p.pronamespace = 'public'::regnamespace AND p.proowner <> '%1$s'::regrole
                      LOOP
                        EXECUTE format('ALTER ROUTINE %%s OWNER TO %%I', r.obj, '%1$s');
                      END LOOP;
                    END $$""".formatted(name));
        }
    }

    private Connection adminConnection(String database) throws SQLException {
        return DriverManager.getConnection(server.jdbcUrl(database), server.user(), server.password());
    }

    private static boolean exists(Statement st, String query) throws SQLException {
        try (ResultSet rs = st.executeQuery(query)) {
            return rs.next();
        }
    }

    private static String quote(String name) {
        return "\"" + name + "\"";
    }
}
