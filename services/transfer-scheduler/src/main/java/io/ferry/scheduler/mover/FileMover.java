package io.ferry.scheduler.mover;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * Copies file:// URLs, only below the configured root directories: no '..' escapes and no symbolic link that
 * leads outside a root, on either side. Data goes to a temporary name in the destination directory and is
 * renamed into place once size and checksum are right, so a failed copy leaves nothing behind.
 */
public final class FileMover {

    private final List<Path> roots;

    public FileMover(List<Path> roots) {
        this.roots = roots.stream().map(p -> p.toAbsolutePath().normalize()).toList();
    }

    public CopyResult copy(CopyRequest req) throws MoverException {
        Path source = confined(req.source(), true);
        Path dest = confined(req.destination(), false);
        long t0 = System.nanoTime();
        try {
            long size = Files.size(source);
            if (req.expectedSize() != null && size != req.expectedSize()) {
                throw new MoverException(MoverException.Code.SIZE_MISMATCH, "prepare", "source has " + size + " bytes, the job says " + req.expectedSize());
            }
            if (Files.exists(dest, LinkOption.NOFOLLOW_LINKS) && !req.overwrite()) {
                throw new MoverException(MoverException.Code.DEST_EXISTS, "prepare", req.destination() + " exists and overwrite is off");
            }
            Files.createDirectories(dest.getParent());
            // Again now that the parents exist: none of them may be a link out of the root.
            confined(req.destination(), false);
            Path partial = Files.createTempFile(dest.getParent(), ".ferry-", ".part");
            try {
                Adler32Stream in;
                try (InputStream raw = Files.newInputStream(source); Adler32Stream counted = new Adler32Stream(raw);
                     OutputStream out = Files.newOutputStream(partial, StandardOpenOption.TRUNCATE_EXISTING)) {
                    counted.transferTo(out);
                    in = counted;
                }
                if (in.bytes() != size) {
                    throw new MoverException(MoverException.Code.SIZE_MISMATCH, "transfer", "moved " + in.bytes() + " of " + size + " bytes");
                }
                long transferMillis = (System.nanoTime() - t0) / 1_000_000;
                String mode = req.verify() == null ? "none" : req.verify();
                if (!mode.equals("none") && req.expectedAdler32() != null && !req.expectedAdler32().equalsIgnoreCase(in.hex())) {
                    throw new MoverException(MoverException.Code.CHECKSUM_MISMATCH, "checksum",
                            "the source's ADLER32 is " + in.hex() + ", the job says " + req.expectedAdler32());
                }
                Files.move(partial, dest, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                return new CopyResult(in.bytes(), in.hex(), 1, transferMillis, 0);
            } finally {
                Files.deleteIfExists(partial);
            }
        } catch (NoSuchFileException e) {
            throw new MoverException(MoverException.Code.SOURCE_NOT_FOUND, "prepare", req.source() + " does not exist");
        } catch (AccessDeniedException e) {
            throw new MoverException(MoverException.Code.PERMISSION_DENIED, "transfer", "permission denied: " + e.getFile());
        } catch (IOException e) {
            throw new MoverException(MoverException.Code.CONNECTION_RESET, "transfer", "I/O failed: " + e);
        }
    }

    /** The path of a file:// URL if it lies inside a root (after resolving links of what exists). */
    Path confined(URI url, boolean mustExist) throws MoverException {
        if (!"file".equalsIgnoreCase(url.getScheme()) || url.getRawPath() == null || url.getRawPath().contains("/../")
                || url.getRawPath().endsWith("/..")) {
            throw new MoverException(MoverException.Code.UNSUPPORTED_URL, "prepare", url + " is not a plain file:// URL");
        }
        Path path = Path.of(url).toAbsolutePath().normalize();
        Path real;
        try {
            Path existing = path;
            while (existing != null && !Files.exists(existing)) {
                existing = existing.getParent();
            }
            if (existing == null || (mustExist && !existing.equals(path))) {
                throw new MoverException(MoverException.Code.SOURCE_NOT_FOUND, "prepare", url + " does not exist");
            }
            real = existing.toRealPath().resolve(existing.relativize(path));
        } catch (IOException e) {
            throw new MoverException(MoverException.Code.PERMISSION_DENIED, "prepare", "cannot resolve " + url + ": " + e);
        }
        for (Path root : roots) {
            try {
                if (real.startsWith(root.toRealPath()) && !real.equals(root.toRealPath())) {
                    return path;
                }
            } catch (IOException ignored) {
                // a root that does not exist holds nothing
            }
        }
        throw new MoverException(MoverException.Code.PERMISSION_DENIED, "prepare", url + " is outside the configured roots");
    }
}
