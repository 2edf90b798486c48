package io.ferry.movers;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Copies between two storage protocols by streaming through the mover (root → davs, s3 → davs, davs → s3, and a
 * protocol to itself where no third party copies): the source is read once, counted and checksummed as it goes, while
 * a read-ahead thread keeps the next buffers coming; the destination gets the bytes in order. Size and checksum are
 * checked as the request asks (the destination's own checksum where its storage offers one, else the file read back),
 * and a destination this attempt began writing is removed when the copy fails.
 */
public final class RelayMover implements Mover {

    private final StorageAccess source;
    private final StorageAccess destination;
    private final DirectBuffers buffers;
    private final ExecutorService readers;
    private final Duration timeout;

    RelayMover(StorageAccess source, StorageAccess destination, DirectBuffers buffers, ExecutorService readers, Duration timeout) {
        this.source = source;
        this.destination = destination;
        this.buffers = buffers;
        this.readers = readers;
        this.timeout = timeout;
    }

    @Override
    public SourceStat stat(URI url) throws MoverException {
        return source.stat(url, ChecksumAlgorithm.ADLER32, null, "prepare");
    }

    /** The source's size, and its storage's checksum only when the copy checks one (an XRootD server may have to read the file for it). */
    @Override
    public SourceStat stat(CopyRequest req) throws MoverException {
        return source.stat(req.source(), req.streamedAlgorithm(), req.credentials().source(), "prepare");
    }

    @Override
    public String sourceChecksum(CopyRequest req) throws MoverException {
        return readAndSum(source, req.source(), req.credentials().source(), req.algorithm(), "prepare");
    }

    @Override
    public SourceStat destinationStat(CopyRequest req) throws MoverException {
        return destination.stat(req.destination(), req.algorithm(), req.credentials().destination(), "prepare");
    }

    @Override
    public SourceStat statDestination(CopyRequest req) throws MoverException {
        StorageCredential credential = req.credentials().destination();
        SourceStat stat = destination.stat(req.destination(), req.algorithm(), credential, "prepare");
        return stat.checksum() != null ? stat : stat.withChecksum(readAndSum(destination, req.destination(), credential, req.algorithm(), "prepare"));
    }

    @Override
    public void prepareDestination(CopyRequest req) throws MoverException {
        StorageCredential credential = req.credentials().destination();
        if (destination.exists(req.destination(), credential, "prepare")) {
            if (!req.overwrite()) {
                throw MoverException.destinationExists("prepare", req.destination());
            }
            destination.delete(req.destination(), credential, "prepare");
        }
        destination.makeParents(req.destinationBase(), req.destination(), credential, "prepare");
    }

    @Override
    public CopyResult transfer(CopyRequest req, SourceStat stat, TransferProgress progress) throws MoverException {
        long t0 = System.nanoTime();
        ChecksumStream counter = ChecksumStream.counter(progress, req.streamedAlgorithm(), req.rateLimit());
        boolean began = false;
        try (DirectBuffers.Reservation reserved = reserve(stat.size(), progress);
             ReadableByteChannel in = source.read(req.source(), req.credentials().source(), "transfer")) {
            progress.onAbort(() -> closeQuietly(in));
            try (StorageAccess.Upload out = destination.write(req.destination(), stat.size(), req.credentials().destination(), "transfer")) {
                began = true;
                relay(in, out, counter, reserved);
                if (stat.size() >= 0 && counter.bytes() != stat.size()) {
                    throw new MoverException(MoverException.Code.SIZE_MISMATCH, "transfer",
                            "read " + counter.bytes() + " bytes of the " + stat.size() + " the source announced");
                }
                out.commit();
            }
            long moved = System.nanoTime();
            verify(req, counter);
            return new CopyResult(counter.bytes(), counter.hex(), 1, (moved - t0) / 1_000_000, (System.nanoTime() - moved) / 1_000_000);
        } catch (MoverException e) {
            throw failed(e, req, progress, began);
        } catch (IOException e) {
            throw failed(HttpMover.ioFailure(e, "transfer"), req, progress, began);
        } finally {
            progress.onAbort(null);
        }
    }

    /** Reads into reserved buffers ahead of the writes when there is more than one, else in turn. */
    private void relay(ReadableByteChannel in, StorageAccess.Upload out, ChecksumStream counter, DirectBuffers.Reservation reserved)
            throws IOException, MoverException {
        if (reserved.size() == 1) {
            ByteBuffer buf = reserved.take();
            try {
                while (fill(in, buf) > 0) {
                    counter.moved(buf);
                    writeAll(out, buf);
                }
            } finally {
                reserved.give(buf);
            }
            return;
        }
        BlockingQueue<ByteBuffer> free = new ArrayBlockingQueue<>(reserved.size());
        BlockingQueue<Object> filled = new ArrayBlockingQueue<>(reserved.size() + 1);
        for (int i = 0; i < reserved.size(); i++) {
            free.add(reserved.take());
        }
        Object end = new Object();
        Future<?> reader = readers.submit(() -> {
            try {
                while (true) {
                    ByteBuffer buf = free.take();
                    if (fill(in, buf) <= 0) {
                        free.add(buf);
                        filled.put(end);
                        return;
                    }
                    filled.put(buf);
                }
            } catch (IOException | RuntimeException e) {
                filled.offer(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            while (true) {
                Object next = filled.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
                if (next == null) {
                    throw new java.net.SocketTimeoutException("no data from the source for " + timeout.toSeconds() + " s");
                }
                if (next == end) {
                    return;
                }
                if (next instanceof IOException e) {
                    throw e;
                }
                if (next instanceof RuntimeException e) {
                    throw e;
                }
                ByteBuffer buf = (ByteBuffer) next;
                counter.moved(buf);
                writeAll(out, buf);
                free.add(buf);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("the copy was stopped");
        } finally {
            reader.cancel(true);
            try {
                reader.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (Exception ignored) {
                // cancelled or failed: its failure was reported through the queue
            }
            for (Object o : filled) {
                if (o instanceof ByteBuffer b) {
                    free.add(b);
                }
            }
            free.forEach(reserved::give);
        }
    }

    /** Fills {@code buf} from the channel, as far as the data goes; flipped for reading. Answers the bytes read, 0 at the end. */
    private static int fill(ReadableByteChannel in, ByteBuffer buf) throws IOException {
        buf.clear();
        while (buf.hasRemaining()) {
            if (in.read(buf) < 0) {
                break;
            }
        }
        buf.flip();
        return buf.remaining();
    }

    private static void writeAll(StorageAccess.Upload out, ByteBuffer buf) throws IOException {
        int p = buf.position();
        while (buf.hasRemaining()) {
            out.write(buf);
        }
        buf.position(p);
    }

    private DirectBuffers.Reservation reserve(long size, TransferProgress progress) throws MoverException {
        int max = size >= 0 && size < HttpMover.READ_AHEAD_THRESHOLD ? 1 : BodyRelay.DEPTH;
        return buffers.reserveForCopy(1, max, timeout, progress);
    }

    /** The streamed checksum against the job's; with target or both, the destination's (its storage's, else read back) against it. */
    private void verify(CopyRequest req, ChecksumStream counter) throws MoverException {
        String mode = req.verifyMode();
        String streamed = counter.hex();
        if (!mode.equals("none") && req.expectedChecksum() != null && !req.expectedChecksum().equalsIgnoreCase(streamed)) {
            throw ChecksumMismatch.sourceAndJob("checksum", req.algorithm(), streamed, req.expectedChecksum());
        }
        if (mode.equals("target") || mode.equals("both")) {
            StorageCredential credential = req.credentials().destination();
            String written = destination.stat(req.destination(), req.algorithm(), credential, "checksum").checksum();
            if (written == null) {
                written = readAndSum(destination, req.destination(), credential, req.algorithm(), "checksum");
            }
            if (!written.equalsIgnoreCase(streamed)) {
                throw ChecksumMismatch.sourceAndDestination(req.algorithm(), streamed, written);
            }
        }
    }

    /** The checksum of a file read whole (a storage that tells none). */
    static String readAndSum(StorageAccess access, URI url, StorageCredential credential, ChecksumAlgorithm algorithm, String phase)
            throws MoverException {
        ChecksumStream sum = ChecksumStream.counter(null, algorithm);
        ByteBuffer buf = ByteBuffer.allocate(DirectBuffers.SIZE);
        try (ReadableByteChannel in = access.read(url, credential, phase)) {
            while (fill(in, buf) > 0) {
                sum.moved(buf);
            }
        } catch (IOException e) {
            throw HttpMover.ioFailure(e, phase);
        }
        return sum.hex();
    }

    /** The failure to report (the abort's reason when the copy was stopped), after removing what this attempt wrote. */
    private MoverException failed(MoverException e, CopyRequest req, TransferProgress progress, boolean began) {
        if (began) {
            try {
                destination.delete(req.destination(), req.credentials().destination(), "cleanup");
            } catch (MoverException ignored) {
                // the partial file stays; the next attempt replaces it (overwrite) or reports it
            }
        }
        MoverException aborted = progress.aborted(e.phase());
        return aborted != null ? aborted : e;
    }

    @Override
    public String create(URI target, URI base, long size, StorageCredential credential) throws MoverException {
        StorageAccess access = accessFor(target);
        GeneratedData data = new GeneratedData(size, target.hashCode() ^ System.nanoTime());
        access.makeParents(base, target, credential, "create");
        try (StorageAccess.Upload out = access.write(target, size, credential, "create")) {
            ByteBuffer chunk = ByteBuffer.allocate(GeneratedData.CHUNK);
            while (data.next(chunk)) {
                writeAll(out, chunk);
            }
            out.commit();
        } catch (IOException e) {
            throw HttpMover.ioFailure(e, "create");
        }
        return data.adler32();
    }

    @Override
    public void remove(URI target, URI base, StorageCredential credential) throws MoverException {
        accessFor(target).delete(target, credential, "remove");
    }

    private StorageAccess accessFor(URI url) throws MoverException {
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
        if (destination.schemes().contains(scheme)) {
            return destination;
        }
        if (source.schemes().contains(scheme)) {
            return source;
        }
        throw new MoverException(MoverException.Code.UNSUPPORTED_URL, "prepare", "this mover does not speak " + scheme + "://");
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception ignored) {
            // stopping the copy: the read fails, which is all that is wanted
        }
    }
}
