package io.ferry.dev;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Properties;

/**
 * The generated passwords of an embedded PostgreSQL (the superuser's and one per service role), kept in one file
 * readable only by its owner next to the data directory, so a restart on the same state directory reuses them.
 * A server without such a file (an external one) gets passwords that live as long as the process.
 */
final class PostgresPasswords {

    static final String SUPERUSER_KEY = "superuser";
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final char[] ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".toCharArray();

    private final Path file;
    private final Properties values;
    private final boolean superuserIsNew;

    private PostgresPasswords(Path file, Properties values, boolean superuserIsNew) {
        this.file = file;
        this.values = values;
        this.superuserIsNew = superuserIsNew;
    }

    /** Loads {@code file} (made 0600 if it was wider), creating it with a new superuser password if it is missing. */
    static synchronized PostgresPasswords loadOrCreate(Path file) throws IOException {
        Properties values = new Properties();
        if (Files.exists(file)) {
            OwnerOnlyFiles.restrict(file);
            values.load(new StringReader(Files.readString(file)));
        }
        boolean created = !values.containsKey(SUPERUSER_KEY);
        PostgresPasswords passwords = new PostgresPasswords(file, values, created);
        if (created) {
            values.setProperty(SUPERUSER_KEY, generate());
            passwords.save();
        }
        return passwords;
    }

    /** Passwords that are not written anywhere. */
    static PostgresPasswords inMemory() {
        Properties values = new Properties();
        values.setProperty(SUPERUSER_KEY, generate());
        return new PostgresPasswords(null, values, true);
    }

    String superuser() {
        return values.getProperty(SUPERUSER_KEY);
    }

    /** True when the superuser's password was generated just now, so the server does not know it yet. */
    boolean superuserIsNew() {
        return superuserIsNew;
    }

    /** The password of {@code role}, generated (and saved) on first use. */
    synchronized String forRole(String role) throws IOException {
        String key = "role." + role;
        String password = values.getProperty(key);
        if (password == null) {
            password = generate();
            values.setProperty(key, password);
            save();
        }
        return password;
    }

    Path file() {
        return file;
    }

    private void save() throws IOException {
        if (file == null) {
            return;
        }
        StringWriter out = new StringWriter();
        values.store(out, "Passwords of the embedded PostgreSQL (generated; keep this file private)");
        OwnerOnlyFiles.write(file, out.toString());
    }

    /** 32 characters from [A-Za-z0-9]: about 190 bits, and nothing that needs quoting in SQL or a URL. */
    static String generate() {
        char[] out = new char[32];
        for (int i = 0; i < out.length; i++) {
            out[i] = ALPHABET[RANDOM.nextInt(ALPHABET.length)];
        }
        return new String(out);
    }
}
