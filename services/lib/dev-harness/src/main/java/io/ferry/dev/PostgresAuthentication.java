package io.ferry.dev;

import io.zonky.test.db.postgres.util.LinuxUtils;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Makes an embedded data directory ask everyone for a password before its server starts. The embedded library runs
 * {@code initdb -A trust}, which lets every local user in as superuser (and run programs through
 * {@code COPY ... TO PROGRAM}); here {@code pg_hba.conf} is replaced by SCRAM-only rules and the superuser's password
 * is set in single-user mode, where no connection is possible, so there is no moment in which the server trusts
 * anyone. Data directories made by older versions of Ferry (trust, no password) are converted the same way.
 */
final class PostgresAuthentication {

    static final String MARKER = "# Ferry dev harness: passwords only (scram-sha-256), never trust.";

    /**
     * The superuser reaches every database; any other role only the database of its own name (one role per service,
     * named as its database). Only loopback over TCP; the Unix socket asks for the password too.
     */
    static final String PG_HBA = MARKER + """

            # TYPE  DATABASE  USER      ADDRESS        METHOD
            local   all       postgres                 scram-sha-256
            host    all       postgres  127.0.0.1/32   scram-sha-256
            local   sameuser  all                      scram-sha-256
            host    sameuser  all       127.0.0.1/32   scram-sha-256
            """;

    private PostgresAuthentication() {
    }

    /** Called with the server stopped; {@code passwordIsNew} forces the password to be set again. */
    static void apply(Path dataDirectory, String superuser, String superuserPassword, boolean passwordIsNew) throws IOException {
        Path hba = dataDirectory.resolve("pg_hba.conf");
        boolean ours = Files.exists(hba) && Files.readString(hba).startsWith(MARKER);
        if (ours && !passwordIsNew) {
            return;
        }
        setPassword(dataDirectory, superuser, superuserPassword);
        OwnerOnlyFiles.write(hba, PG_HBA);
    }

    private static void setPassword(Path dataDirectory, String superuser, String password) throws IOException {
        List<String> cmd = new ArrayList<>();
        if (LinuxUtils.isUnshareAvailable()) {
            cmd.addAll(List.of("unshare", "-U")); // as the library starts the server: PostgreSQL refuses to run as root
        }
        cmd.addAll(List.of(PostgresBinaries.postgresFor(dataDirectory).toString(), "--single", "-D", dataDirectory.toString(),
                "-c", "password_encryption=scram-sha-256", "postgres"));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try (OutputStream in = p.getOutputStream()) {
            // passed on stdin: a password on the command line would show in ps
            in.write(("ALTER ROLE \"" + superuser + "\" WITH PASSWORD '" + password + "';\n").getBytes(StandardCharsets.UTF_8));
        }
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("PostgreSQL in single-user mode did not finish");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while setting the superuser's password", e);
        }
        if (p.exitValue() != 0 || output.contains("ERROR:") || output.contains("FATAL:")) {
            throw new IOException("cannot set the superuser's password of " + dataDirectory + " (exit " + p.exitValue() + "):\n"
                    + output.replace(password, "***"));
        }
    }
}
