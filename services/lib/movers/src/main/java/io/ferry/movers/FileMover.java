package io.ferry.movers;

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
 * Copies file:// URLs, only below the configured root directories and, when the request names them, below the
 * source's and the destination's SE base directories: no '..' escapes and no symbolic link that leads outside a
 * root or out of its SE, on either side. Data goes to a temporary name in the destination directory and is
 * renamed into place once size and checksum are right, so a failed copy leaves nothing behind.
 */
public final class FileMover implements Mover, DirectoryListing {

    private final List<Path> roots;

    public FileMover(List<Path> roots) {
        this.roots = roots.stream().map(p -> p.toAbsolutePath().normalize()).toList();
    }

    @Override
    public SourceStat stat(URI source) throws MoverException {
        return stat(source, null);
    }

    @Override
    public SourceStat stat(URI source, URI sourceBase) throws MoverException {
        Path path = confined(source, true, sourceBase);
        try {
            return new SourceStat(Files.size(path), true, null, Files.getLastModifiedTime(path).toInstant());
        } catch (NoSuchFileException e) {
            throw new MoverException(MoverException.Code.SOURCE_NOT_FOUND, "prepare", source + " does not exist");
        } catch (IOException e) {
            throw failure(e, "prepare");
        }
    }

    @Override
    public SourceStat destinationStat(CopyRequest req) throws MoverException {
        Path dest = confined(req.destination(), false, req.destinationBase());
        try {
            return new SourceStat(Files.size(dest), true, null, Files.getLastModifiedTime(dest).toInstant());
        } catch (IOException e) {
            throw failure(e, "prepare");
        }
    }

    @Override
    public SourceStat statDestination(CopyRequest req) throws MoverException {
        Path dest = confined(req.destination(), false, req.destinationBase());
        try (ChecksumStream in = new ChecksumStream(Files.newInputStream(dest), req.algorithm())) {
            long size = in.transferTo(OutputStream.nullOutputStream());
            return new SourceStat(size, true, in.hex(), Files.getLastModifiedTime(dest).toInstant());
        } catch (IOException e) {
            throw failure(e, "prepare");
        }
    }

    @Override
    public String sourceChecksum(CopyRequest req) throws MoverException {
        try (ChecksumStream in = new ChecksumStream(Files.newInputStream(confined(req.source(), true, req.sourceBase())), req.algorithm())) {
            in.transferTo(OutputStream.nullOutputStream());
            return in.hex();
        } catch (NoSuchFileException e) {
            throw new MoverException(MoverException.Code.SOURCE_NOT_FOUND, "prepare", req.source() + " does not exist");
        } catch (IOException e) {
            throw failure(e, "prepare");
        }
    }

    @Override
    public void prepareDestination(CopyRequest req) throws MoverException {
        Path dest = confined(req.destination(), false, req.destinationBase());
        if (Files.exists(dest, LinkOption.NOFOLLOW_LINKS) && !req.overwrite()) {
            throw MoverException.destinationExists("prepare", req.destination());
        }
        try {
            Files.createDirectories(dest.getParent());
        } catch (IOException e) {
            throw failure(e, "prepare");
        }
        // Again now that the parents exist: none of them may be a link out of the root or the SE.
        confined(req.destination(), false, req.destinationBase());
    }

    @Override
    public CopyResult transfer(CopyRequest req, SourceStat stat, TransferProgress progress) throws MoverException {
        Path source = confined(req.source(), true, req.sourceBase());
        Path dest = confined(req.destination(), false, req.destinationBase());
        long t0 = System.nanoTime();
        try {
            Files.createDirectories(dest.getParent());
            Path partial = Files.createTempFile(dest.getParent(), ".ferry-", ".part");
            try {
                ChecksumStream in;
                try (InputStream raw = Files.newInputStream(source); ChecksumStream counted = new ChecksumStream(raw, progress,
                             req.streamedAlgorithm(), req.rateLimit());
                     OutputStream out = Files.newOutputStream(partial, StandardOpenOption.TRUNCATE_EXISTING)) {
                    counted.transferTo(out);
                    in = counted;
                }
                long size = stat.size() >= 0 ? stat.size() : in.bytes();
                if (in.bytes() != size || (req.expectedSize() != null && in.bytes() != req.expectedSize())) {
                    throw new MoverException(MoverException.Code.SIZE_MISMATCH, "transfer", "moved " + in.bytes() + " of " + size + " bytes");
                }
                long transferMillis = (System.nanoTime() - t0) / 1_000_000;
                String mode = req.verifyMode();
                if (!mode.equals("none") && req.expectedChecksum() != null && !req.expectedChecksum().equalsIgnoreCase(in.hex())) {
                    throw ChecksumMismatch.sourceAndJob("checksum", req.algorithm(), in.hex(), req.expectedChecksum());
                }
                if (!req.overwrite() && Files.exists(dest, LinkOption.NOFOLLOW_LINKS)) {
                    throw new MoverException(MoverException.Code.DEST_EXISTS, "transfer", req.destination() + " appeared during the copy");
                }
                Files.move(partial, dest, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                return new CopyResult(in.bytes(), in.hex(), 1, transferMillis, 0);
            } finally {
                Files.deleteIfExists(partial);
            }
        } catch (NoSuchFileException e) {
            throw new MoverException(MoverException.Code.SOURCE_NOT_FOUND, "transfer", req.source() + " does not exist");
        } catch (IOException e) {
            MoverException aborted = progress.aborted("transfer");
            throw aborted != null ? aborted : failure(e, "transfer");
        }
    }

    @Override
    public String create(URI target, URI base, long size, StorageCredential credential) throws MoverException {
        Path file = confined(target, false, base);
        GeneratedData data = new GeneratedData(size, target.hashCode() ^ System.nanoTime());
        try {
            Files.createDirectories(file.getParent());
            // again now that the parents exist: none of them may be a link out of the root or the SE
            confined(target, false, base);
            try (java.nio.channels.FileChannel out = java.nio.channels.FileChannel.open(file, StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
                java.nio.ByteBuffer chunk = java.nio.ByteBuffer.allocate(GeneratedData.CHUNK);
                while (data.next(chunk)) {
                    while (chunk.hasRemaining()) {
                        out.write(chunk);
                    }
                }
            }
            return data.adler32();
        } catch (IOException e) {
            throw failure(e, "create");
        }
    }

    @Override
    public void remove(URI target, URI base, StorageCredential credential) throws MoverException {
        Path file = confined(target, false, base);
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw failure(e, "remove");
        }
    }

    private static MoverException failure(IOException e, String phase) {
        if (e instanceof AccessDeniedException denied) {
            return new MoverException(MoverException.Code.PERMISSION_DENIED, phase, "permission denied: " + denied.getFile());
        }
        return new MoverException(MoverException.Code.CONNECTION_RESET, phase, "I/O failed: " + e);
    }

    @Override
    public java.util.Set<String> schemes() {
        return java.util.Set.of("file");
    }

    /**
     * Walks the tree without following links: a link is never listed, so a link loop or a link out of the root is
     * never entered (its target is not copied either: the copy of a file refuses a link out of its SE).
     */
    @Override
    public Listing list(URI dir, URI base, StorageCredential credential, java.util.function.Predicate<String> keep, int limit)
            throws MoverException {
        Path top = confined(dir, true, base);
        if (!Files.isDirectory(top, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            throw new MoverException(MoverException.Code.SOURCE_NOT_FOUND, "list", dir + " is not a directory");
        }
        List<ListedFile> kept = new java.util.ArrayList<>();
        long[] matching = {0};
        try {
            Files.walkFileTree(top, new java.nio.file.SimpleFileVisitor<>() {
                @Override
                public java.nio.file.FileVisitResult visitFile(Path file, java.nio.file.attribute.BasicFileAttributes attrs) {
                    if (attrs.isRegularFile()) {
                        StringBuilder rel = new StringBuilder();
                        for (Path part : top.relativize(file)) {
                            rel.append(rel.length() == 0 ? "" : "/").append(part);
                        }
                        if (keep.test(rel.toString()) && matching[0]++ < limit) {
                            kept.add(new ListedFile(rel.toString(), attrs.size()));
                        }
                    }
                    return java.nio.file.FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw failure(e, "list");
        }
        return new Listing(kept, matching[0]);
    }

    /**
     * The path of a file:// URL if it lies inside a root and inside the SE's base directory {@code base} (when
     * given), after resolving links of what exists.
     */
    Path confined(URI url, boolean mustExist, URI base) throws MoverException {
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
        if (base != null && !strictlyBelow(real, base)) {
            throw new MoverException(MoverException.Code.PERMISSION_DENIED, "prepare", url + " is outside its storage endpoint's directory " + base);
        }
        for (Path root : roots) {
            if (strictlyBelow(real, root)) {
                return path;
            }
        }
        throw new MoverException(MoverException.Code.PERMISSION_DENIED, "prepare", url + " is outside the configured roots");
    }

    private static boolean strictlyBelow(Path real, URI directory) throws MoverException {
        if (!"file".equalsIgnoreCase(directory.getScheme())) {
            throw new MoverException(MoverException.Code.UNSUPPORTED_URL, "prepare", directory + " is not a file:// base directory");
        }
        return strictlyBelow(real, Path.of(directory));
    }

    private static boolean strictlyBelow(Path real, Path directory) {
        try {
            Path d = directory.toRealPath();
            return real.startsWith(d) && !real.equals(d);
        } catch (IOException e) {
            // a directory that does not exist holds nothing
            return false;
        }
    }
}
