package io.ferry.movers;

import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSocketFactory;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Copies over HTTP/WebDAV: stat the source (HEAD, with {@code Want-Digest} for the copy's algorithm), check the destination
 * (overwrite or DEST_EXISTS), create parent collections (MKCOL), then stream GET into PUT without holding the file
 * in memory — large files with Range requests on several streams, reassembled in order through a bounded window —
 * computing the checksum (ADLER32 or MD5) on the way, checking size and checksum, and on failure removing a partial or wrong destination
 * this attempt wrote (never one that was there before).
 */
public final class HttpMover implements Mover {

    static final long PARALLEL_THRESHOLD = 64L << 20;

    /** Files from this size on are read ahead on a second thread while the upload writes. */
    static final long READ_AHEAD_THRESHOLD = 4L << 20;

    private final HttpWire wire;
    private final DirectBuffers buffers;
    private final KnownCollections collections = new KnownCollections();
    private final Duration timeout;
    private final WebDavAccess webDav;
    private final ExecutorService readers = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "mover-read-ahead");
        t.setDaemon(true);
        return t;
    });

    /**
     * @param timeout     per-request I/O timeout
     * @param copyMemory  direct memory (bytes) all copies together may hold for their data
     */
    public HttpMover(Duration timeout, long copyMemory) {
        this(timeout, copyMemory, (SSLSocketFactory) SSLSocketFactory.getDefault());
    }

    /** @param tls how https:// connections are made: whom they trust, which certificate they present ({@link TlsSockets}) */
    public HttpMover(Duration timeout, long copyMemory, SSLSocketFactory tls) {
        this(timeout, copyMemory, StorageTls.of(tls));
    }

    /**
     * @param tls the mover's own TLS material, under whose trust a copy's client certificate ({@link CopyRequest#credentials()})
     *            is presented instead where the copy has one
     */
    public HttpMover(Duration timeout, long copyMemory, StorageTls tls) {
        this.wire = new HttpWire(Duration.ofSeconds(10), timeout, tls);
        this.buffers = new DirectBuffers(copyMemory);
        this.timeout = timeout;
        this.webDav = new WebDavAccess(wire, collections, readers);
    }

    /** WebDAV as one side of a copy streamed between protocols, over this mover's kept connections. */
    public StorageAccess webDav() {
        return webDav;
    }

    /** WebDAV collection trees listed for directory jobs, over this mover's kept connections. */
    public DirectoryListing webDavListing() {
        return webDav;
    }

    /**
     * A mover that streams from {@code source} to {@code destination} (two protocols, or one with no third party to copy),
     * within this mover's copy memory: the replica has one budget, whichever protocols its copies speak.
     */
    public RelayMover relay(StorageAccess source, StorageAccess destination) {
        return new RelayMover(source, destination, buffers, readers, timeout);
    }

    /** The copies' shared direct memory (tests look at what is left). */
    DirectBuffers copyMemory() {
        return buffers;
    }

    @Override
    public SourceStat stat(URI source) throws MoverException {
        source = WebDavSchemes.asHttp(source);
        return head(wire, source, null, "prepare", "source " + source);
    }

    /** The source's stat, presenting the copy's source credential. */
    @Override
    public SourceStat stat(CopyRequest req) throws MoverException {
        req = WebDavSchemes.asHttp(req);
        try {
            return head(toSource(req), req.source(), req.credentials().source(), req.algorithm(), "prepare", "source " + req.source());
        } catch (IOException e) {
            throw ioFailure(e, "prepare");
        }
    }

    /** The wire as the source SE sees this copy (its credential for the source, else the mover's own). */
    private HttpWire toSource(CopyRequest req) throws IOException {
        return wire.presenting(req.credentials().source());
    }

    /** The wire as the destination SE sees this copy. */
    private HttpWire toDestination(CopyRequest req) throws IOException {
        return wire.presenting(req.credentials().destination());
    }

    /** Size, range support and the SE's ADLER32 (if it offers one) of a file; {@code what} starts "source" or "destination". */
    private SourceStat head(HttpWire wire, URI uri, StorageCredential credential, String phase, String what) throws MoverException {
        return head(wire, uri, credential, ChecksumAlgorithm.ADLER32, phase, what);
    }

    /** Size, range support and the SE's checksum in {@code algorithm} (if it offers one) of a file, asked for with RFC 3230 {@code Want-Digest}. */
    private SourceStat head(HttpWire wire, URI uri, StorageCredential credential, ChecksumAlgorithm algorithm, String phase, String what)
            throws MoverException {
        try (HttpWire.Response head = wire.send("HEAD", uri, BearerHeaders.with(Map.of("Want-Digest", algorithm.digestName()), credential))) {
            check(head.status, phase, what);
            boolean ranges = head.header("accept-ranges") != null && head.header("accept-ranges").contains("bytes");
            return new SourceStat(head.contentLength(), ranges, algorithm.fromDigestHeaders(head.headers("digest")),
                    HttpDates.parse(head.header("last-modified")));
        } catch (IOException e) {
            throw ioFailure(e, phase);
        }
    }

    @Override
    public SourceStat destinationStat(CopyRequest req) throws MoverException {
        req = WebDavSchemes.asHttp(req);
        try {
            return head(toDestination(req), req.destination(), req.credentials().destination(), req.algorithm(), "prepare",
                    "destination " + req.destination());
        } catch (IOException e) {
            throw ioFailure(e, "prepare");
        }
    }

    @Override
    public SourceStat statDestination(CopyRequest req) throws MoverException {
        req = WebDavSchemes.asHttp(req);
        try {
            HttpWire dest = toDestination(req);
            StorageCredential credential = req.credentials().destination();
            SourceStat stat = head(dest, req.destination(), credential, req.algorithm(), "prepare", "destination " + req.destination());
            String sum = stat.checksum() != null ? stat.checksum() : checksumOf(dest, req.destination(), credential, req.algorithm(), "destination ");
            return stat.withChecksum(sum);
        } catch (IOException e) {
            throw ioFailure(e, "prepare");
        }
    }

    @Override
    public void prepareDestination(CopyRequest req) throws MoverException {
        req = WebDavSchemes.asHttp(req);
        try {
            HttpWire dest = toDestination(req);
            int exists = status(dest, "HEAD", req.destination(), req.credentials().destination());
            if (exists < 300) {
                if (!req.overwrite()) {
                    throw MoverException.destinationExists("prepare", req.destination());
                }
                check(status(dest, "DELETE", req.destination(), req.credentials().destination()), "prepare", "destination " + req.destination());
            } else if (exists != 404) {
                check(exists, "prepare", "destination " + req.destination());
            }
            makeCollections(req, "prepare");
        } catch (IOException e) {
            throw ioFailure(e, "prepare");
        }
    }

    /** The destination's parent collections, outermost first, unless this replica already made or saw them. */
    private void makeCollections(CopyRequest req, String phase) throws IOException, MoverException {
        for (URI parent : parents(req.destinationBase(), req.destination())) {
            if (collections.contains(parent)) {
                continue;
            }
            int mk = status(toDestination(req), "MKCOL", parent, req.credentials().destination());
            // 201 created; 405 already exists
            if (mk != 201 && mk != 405) {
                check(mk, phase, "collection " + parent);
            }
            collections.add(parent);
        }
    }

    @Override
    public CopyResult transfer(CopyRequest req, SourceStat stat, TransferProgress progress) throws MoverException {
        req = WebDavSchemes.asHttp(req);
        if (req.thirdPartyCopy()) {
            try {
                return thirdPartyCopy(req, stat, progress);
            } catch (ThirdPartyCopy.Unsupported e) {
                // the SE was registered as doing third-party copy but does not: the data flows through Ferry instead
            }
        }
        try {
            return stream(req, stat, progress);
        } catch (MissingCollection e) {
            // the destination's directory went away after the prepare phase (or was only remembered): made again,
            // and the copy, whose body the refused upload used up, starts once more from the source
            collections.forget(parents(req.destinationBase(), req.destination()));
            try {
                makeCollections(req, "transfer");
                progress.restart();
                return stream(req, stat, progress);
            } catch (MissingCollection again) {
                throw failedCopy(new MoverException(MoverException.Code.HTTP_ERROR, "transfer",
                        "destination " + req.destination() + " refused the upload again though its parent collections were just made"), req, progress, false);
            } catch (IOException io) {
                throw failedCopy(io, req, progress, false);
            }
        }
    }

    /**
     * An upload was refused because its parent collection does not exist: WebDAV answers 409 Conflict (RFC 4918,
     * 9.7.1), nginx 500.
     */
    private static final class MissingCollection extends Exception {
        MissingCollection() {
            super(null, null, false, false);
        }
    }

    /** GET into PUT, on one stream or Range streams, the copy's checksum computed on the way. */
    private CopyResult stream(CopyRequest req, SourceStat stat, TransferProgress progress) throws MoverException, MissingCollection {
        long size = stat.size();
        long t0 = System.nanoTime();
        int streams = stat.ranges() && size >= PARALLEL_THRESHOLD ? Math.max(1, Math.min(16, req.streams())) : 1;
        DirectBuffers.Reservation memory = reserve(streams, size, progress);
        if (memory.size() < RangeRelay.BUFFERS_PER_RANGE) {
            streams = 1;
        }
        ExecutorService pool = null;
        HttpWire.Response get = null;
        HttpWire.Body relay = null;
        Attempt attempt = new Attempt();
        try {
            long length = size;
            if (streams == 1) {
                get = toSource(req).send("GET", req.source(), req.marked(BearerHeaders.of(req.credentials().source())));
                check(get.status, "transfer", "source " + req.source());
                length = get.contentLength();
                if (length < 0) {
                    throw new MoverException(MoverException.Code.HTTP_ERROR, "transfer", "the source sent no Content-Length");
                }
            }
            if ((size >= 0 && length != size) || (req.expectedSize() != null && length != req.expectedSize())) {
                throw new MoverException(MoverException.Code.SIZE_MISMATCH, "transfer",
                        "the source now has " + length + " bytes, " + (req.expectedSize() != null ? req.expectedSize() : size) + " expected");
            }
            ChecksumStream body = ChecksumStream.counter(progress, req.streamedAlgorithm(), req.rateLimit());
            if (streams > 1) {
                pool = Executors.newFixedThreadPool(streams + 1);
                relay = new RangeRelay(toSource(req), req.source(), req.marked(BearerHeaders.of(req.credentials().source())), size, streams, body, pool,
                        memory);
            } else {
                relay = new BodyRelay(get, length, body, length >= READ_AHEAD_THRESHOLD ? readers : null, memory);
            }
            MoverException stopped = progress.aborted("transfer");
            if (stopped != null) {
                throw stopped;  // stopped before the upload began: the destination is not this attempt's to touch
            }
            HttpWire.Response put = toDestination(req).send("PUT", req.destination(), req.towardDestination(BearerHeaders.of(req.credentials().destination())),
                    attempt.writing(relay), length);
            try (put) {
                put.discard();
                // an upload the server answered with an error was refused: nothing of this attempt's is there
                attempt.wrote = put.status < 300;
                if ((put.status == 409 || put.status >= 500) && collectionGone(req)) {
                    throw new MissingCollection();
                }
                check(put.status, "transfer", "destination " + req.destination());
            }
            if (get != null) {
                get.close();
                get = null;
            }
            long transferMillis = (System.nanoTime() - t0) / 1_000_000;
            if (body.bytes() != length) {
                throw new MoverException(MoverException.Code.SIZE_MISMATCH, "transfer", "moved " + body.bytes() + " bytes of " + length);
            }
            long c0 = System.nanoTime();
            verify(req, body.hex());
            return new CopyResult(body.bytes(), body.hex(), streams, transferMillis, (System.nanoTime() - c0) / 1_000_000);
        } catch (MoverException | IOException | RuntimeException e) {
            throw failedCopy(e, req, progress, attempt.wrote);
        } finally {
            closeQuietly(relay);
            closeQuietly(get);
            if (pool != null) {
                pool.shutdownNow();
            }
            memory.close();
        }
    }

    /**
     * The copy's buffers from the replica's budget ({@link DirectBuffers#reserveForCopy}): Range streams want two
     * ranges each and need one; a single stream wants a read-ahead queue and needs one buffer.
     */
    private DirectBuffers.Reservation reserve(int streams, long size, TransferProgress progress) throws MoverException {
        int min = streams > 1 ? RangeRelay.BUFFERS_PER_RANGE : 1;
        int max = streams > 1 ? streams * 2 * RangeRelay.BUFFERS_PER_RANGE : size >= READ_AHEAD_THRESHOLD ? BodyRelay.DEPTH : 1;
        return buffers.reserveForCopy(min, max, timeout, progress);
    }

    /**
     * The destination pulls the file (no byte passes through here); then its size is checked, and its checksum (the
     * SE's digest, else read back) against the job's checksum, else the source SE's, else one computed by reading
     * the source: the checksum modes keep their meaning though the mover never sees the data go by.
     */
    private CopyResult thirdPartyCopy(CopyRequest req, SourceStat stat, TransferProgress progress) throws MoverException, ThirdPartyCopy.Unsupported {
        long t0 = System.nanoTime();
        Attempt attempt = new Attempt();
        try {
            HttpWire dest = toDestination(req);
            ThirdPartyCopy.pull(dest, req, progress, attempt);
            long transferMillis = (System.nanoTime() - t0) / 1_000_000;
            long c0 = System.nanoTime();
            SourceStat copied = head(dest, req.destination(), req.credentials().destination(), req.algorithm(), "checksum",
                    "destination " + req.destination());
            String sum = ThirdPartyCopy.verify(req, stat, copied,
                    () -> checksumOf(dest, req.destination(), req.credentials().destination(), req.algorithm(), "destination "),
                    () -> sourceChecksum(req));
            return new CopyResult(copied.size(), sum, Math.max(1, req.streams()), transferMillis, (System.nanoTime() - c0) / 1_000_000);
        } catch (MoverException | IOException | RuntimeException e) {
            throw failedCopy(e, req, progress, attempt.wrote);
        }
    }

    /**
     * Asks the source SE to send the file to {@code target}, a URL that carries its own authorisation (a pre-signed S3
     * PUT), presenting the copy's source credential; answers the bytes the SE reported. {@code attempt} tells whether
     * the SE took the COPY on (and so may have begun writing the target). The caller checks what arrived.
     */
    long push(CopyRequest req, URI target, TransferProgress progress, Attempt attempt) throws MoverException, ThirdPartyCopy.Unsupported {
        req = WebDavSchemes.asHttp(req);
        try {
            return ThirdPartyCopy.push(toSource(req), req, target, progress, attempt);
        } catch (IOException e) {
            throw ioFailure(e, "transfer");
        }
    }

    /**
     * Whether this attempt wrote (or may have begun writing) the destination: only then is it removed after a failure.
     * A file that was there before — one that appeared after the prepare phase, say — is never this attempt's to
     * remove: not when the source is missing, the copy is stopped before its upload began, or the server refused it.
     */
    static final class Attempt {
        volatile boolean wrote;

        /** The upload's body, which marks the attempt as writing once the request is on its way. */
        HttpWire.Body writing(HttpWire.Body body) {
            return new HttpWire.Body() {
                @Override
                public void writeTo(HttpWire.Sink sink) throws IOException {
                    wrote = true;
                    body.writeTo(sink);
                }

                @Override
                public void close() {
                    body.close();
                }
            };
        }
    }

    /**
     * After a copy failed: the destination removed if this attempt wrote it ({@code wrote}: a partial or wrong
     * copy); answers the failure to report (why the copy was stopped, rather than the I/O error the stop caused).
     * Unexpected runtime failures are rethrown as they are.
     */
    private MoverException failedCopy(Exception e, CopyRequest req, TransferProgress progress, boolean wrote) {
        if (wrote) {
            removeQuietly(req);
        }
        collections.forget(parents(req.destinationBase(), req.destination()));  // the next attempt makes sure of them
        MoverException aborted = progress.aborted("transfer");
        if (aborted != null) {
            return aborted;
        }
        if (e instanceof MoverException m) {
            return m;
        }
        if (e instanceof IOException io) {
            return ioFailure(io, "transfer");
        }
        throw (RuntimeException) e;
    }

    /** The checksum of a file read whole from its URL (a storage that offers no digest); {@code role} is "source " or "destination ". */
    private String checksumOf(HttpWire wire, URI uri, StorageCredential credential, ChecksumAlgorithm algorithm, String role) throws MoverException {
        try (HttpWire.Response r = wire.send("GET", uri, BearerHeaders.of(credential))) {
            check(r.status, "checksum", role + uri);
            ChecksumStream s = new ChecksumStream(r.body, algorithm);
            s.transferTo(OutputStream.nullOutputStream());
            return s.hex();
        } catch (IOException e) {
            throw ioFailure(e, "checksum");
        }
    }

    /** The source's checksum in the copy's algorithm, read whole. */
    @Override
    public String sourceChecksum(CopyRequest req) throws MoverException {
        req = WebDavSchemes.asHttp(req);
        try {
            return checksumOf(toSource(req), req.source(), req.credentials().source(), req.algorithm(), "source ");
        } catch (IOException e) {
            throw ioFailure(e, "checksum");
        }
    }

    /** The streamed checksum against the job's, then (target, both) the destination's read back against the streamed one. */
    private void verify(CopyRequest req, String sourceSum) throws MoverException {
        String mode = req.verifyMode();
        if (!mode.equals("none") && req.expectedChecksum() != null && !req.expectedChecksum().equalsIgnoreCase(sourceSum)) {
            throw ChecksumMismatch.sourceAndJob("checksum", req.algorithm(), sourceSum, req.expectedChecksum());
        }
        if (mode.equals("target") || mode.equals("both")) {
            String written;
            try {
                written = checksumOf(toDestination(req), req.destination(), req.credentials().destination(), req.algorithm(), "destination ");
            } catch (IOException e) {
                throw ioFailure(e, "checksum");
            }
            if (!written.equals(sourceSum)) {
                throw ChecksumMismatch.sourceAndDestination(req.algorithm(), sourceSum, written);
            }
        }
    }

    /** After a refused upload: whether the collection it went into is not there (404); a server's own error otherwise. */
    private boolean collectionGone(CopyRequest req) {
        List<URI> parents = parents(req.destinationBase(), req.destination());
        try {
            return !parents.isEmpty() && status(toDestination(req), "HEAD", parents.get(parents.size() - 1), req.credentials().destination()) == 404;
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public String create(URI target, URI base, long size, StorageCredential credential) throws MoverException {
        target = WebDavSchemes.asHttp(target);
        CopyRequest req = new CopyRequest(target, target, size, null, null, true, 1, WebDavSchemes.asHttp(base), false, null,
                new StorageCredentials(credential, credential));
        GeneratedData data = new GeneratedData(size, target.hashCode() ^ System.nanoTime());
        try {
            makeCollections(req, "create");
            HttpWire.Body body = sink -> {
                java.nio.ByteBuffer chunk = java.nio.ByteBuffer.allocate(GeneratedData.CHUNK);
                while (data.next(chunk)) {
                    sink.write(chunk);
                }
            };
            try (HttpWire.Response put = toDestination(req).send("PUT", target, BearerHeaders.of(credential), body, size)) {
                put.discard();
                check(put.status, "create", "destination " + target);
            }
        } catch (IOException e) {
            collections.forget(parents(req.destinationBase(), target));
            throw ioFailure(e, "create");
        } catch (MoverException e) {
            collections.forget(parents(req.destinationBase(), target));
            throw e;
        }
        if (data.produced() != size) {
            throw new MoverException(MoverException.Code.SIZE_MISMATCH, "create", "wrote " + data.produced() + " bytes of " + size);
        }
        return data.adler32();
    }

    @Override
    public void remove(URI target, URI base, StorageCredential credential) throws MoverException {
        target = WebDavSchemes.asHttp(target);
        try {
            int status = status(wire.presenting(credential), "DELETE", target, credential);
            if (status != 404) {
                check(status, "remove", "file " + target);
            }
        } catch (IOException e) {
            throw ioFailure(e, "remove");
        }
    }

    /** Collections between the SE's base URL and the file, outermost first, each ending in '/'. */
    static List<URI> parents(URI base, URI file) {
        List<URI> out = new ArrayList<>();
        String b = base == null ? "" : base.toString().replaceAll("/+$", "");
        String f = file.toString();
        if (base == null || !f.startsWith(b + "/")) {
            return out;
        }
        String rest = f.substring(b.length() + 1);
        int slash = rest.indexOf('/');
        while (slash > 0) {
            out.add(URI.create(b + "/" + rest.substring(0, slash + 1)));
            slash = rest.indexOf('/', slash + 1);
        }
        return out;
    }

    private static int status(HttpWire wire, String method, URI uri, StorageCredential credential) throws IOException {
        try (HttpWire.Response r = wire.send(method, uri, BearerHeaders.of(credential))) {
            r.discard();
            return r.status;
        }
    }

    private void removeQuietly(CopyRequest req) {
        try {
            status(toDestination(req), "DELETE", req.destination(), req.credentials().destination());
        } catch (IOException e) {
            // the partial file stays; the next attempt replaces it (overwrite) or reports it
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception ignored) {
                // nothing to save
            }
        }
    }

    static void check(int status, String phase, String what) throws MoverException {
        if (status < 300) {
            return;
        }
        MoverException.Code code = status == 404 ? (what.startsWith("source") ? MoverException.Code.SOURCE_NOT_FOUND : MoverException.Code.HTTP_ERROR)
                : status == 401 || status == 403 ? MoverException.Code.PERMISSION_DENIED
                : status >= 500 ? MoverException.Code.HTTP_5XX : MoverException.Code.HTTP_ERROR;
        throw new MoverException(code, phase, what + " answered HTTP " + status);
    }

    static MoverException ioFailure(Throwable e, String phase) {
        if (e instanceof SSLHandshakeException && !causedBy(e, EOFException.class) && !causedBy(e, java.net.SocketException.class)) {
            // the peer's certificate is not trusted, ours was refused, or no protocol in common: trying again won't mend it
            return new MoverException(MoverException.Code.TLS_FAILED, phase, "TLS handshake failed: " + e.getMessage());
        }
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof SocketTimeoutException) {
                return new MoverException(MoverException.Code.TIMEOUT, phase, "timed out: " + e.getMessage());
            }
            if (c instanceof MoverException m) {
                return m;
            }
        }
        return new MoverException(MoverException.Code.CONNECTION_RESET, phase, "connection failed: " + e);
    }

    private static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
        for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
            if (type.isInstance(c)) {
                return true;
            }
        }
        return false;
    }
}
