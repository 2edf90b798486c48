package io.ferry.dev;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Files and directories that only their owner may read: secrets of the local stack (database passwords, the
 * token-signing key) on a host other users share.
 */
public final class OwnerOnlyFiles {

    static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");
    static final Set<PosixFilePermission> DIRECTORY = PosixFilePermissions.fromString("rwx------");

    private OwnerOnlyFiles() {
    }

    /**
     * Writes {@code content} to {@code file} (mode 0600) by creating a temporary file that is 0600 from its first
     * byte and moving it into place, so the secret is never readable by others, not even for a moment.
     */
    public static void write(Path file, String content) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = posix(dir)
                ? Files.createTempFile(dir, "." + file.getFileName(), ".tmp", PosixFilePermissions.asFileAttribute(FILE))
                : Files.createTempFile(dir, "." + file.getFileName(), ".tmp");
        try {
            Files.writeString(tmp, content);
            try {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** Creates {@code dir} (and missing parents) and makes {@code dir} itself 0700. */
    public static Path directory(Path dir) throws IOException {
        try {
            if (posix(dir.toAbsolutePath().getParent())) {
                Files.createDirectories(dir.toAbsolutePath().getParent());
                FileAttribute<Set<PosixFilePermission>> mode = PosixFilePermissions.asFileAttribute(DIRECTORY);
                Files.createDirectory(dir, mode);
            } else {
                Files.createDirectories(dir);
            }
        } catch (FileAlreadyExistsException e) {
            if (!Files.isDirectory(dir)) {
                throw e;
            }
        }
        restrict(dir, DIRECTORY);
        return dir;
    }

    /** Narrows an existing file to 0600 (a copy the user made, a file from an older version). */
    public static void restrict(Path file) throws IOException {
        restrict(file, Files.isDirectory(file) ? DIRECTORY : FILE);
    }

    private static void restrict(Path path, Set<PosixFilePermission> mode) throws IOException {
        if (posix(path) && !Files.getPosixFilePermissions(path).equals(mode)) {
            Files.setPosixFilePermissions(path, mode);
        }
    }

    private static boolean posix(Path path) {
        Path existing = path;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        return existing != null && Files.getFileAttributeView(existing, java.nio.file.attribute.PosixFileAttributeView.class) != null;
    }
}
