package io.ferry.scheduler.mover;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;

/**
 * Copies over HTTP/WebDAV: stat the source (HEAD), check the destination (overwrite or DEST_EXISTS), create parent
 * collections (MKCOL), then stream GET into PUT without holding the file in memory — large files with Range
 * requests on several streams, reassembled in order through a bounded window — computing ADLER32 on the way,
 * checking size and checksum, and removing a partial or wrong destination on failure.
 */
public final class HttpMover implements Mover {

    static final long CHUNK = 8L << 20;
    static final long PARALLEL_THRESHOLD = 64L << 20;

    private final HttpClient http;
    private final Duration timeout;

    public HttpMover(Duration timeout) {
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();
    }

    @Override
    public SourceStat stat(URI source) throws MoverException {
        HttpResponse<Void> head = send(HttpRequest.newBuilder(source).method("HEAD", HttpRequest.BodyPublishers.noBody())
                .header("Want-Digest", "adler32"), "prepare");
        check(head.statusCode(), "prepare", "source " + source);
        long size = head.headers().firstValueAsLong("Content-Length").orElse(-1);
        boolean ranges = head.headers().firstValue("Accept-Ranges").map(v -> v.contains("bytes")).orElse(false);
        return new SourceStat(size, ranges, adler32Digest(head.headers().allValues("Digest")));
    }

    /** The ADLER32 of an RFC 3230 {@code Digest: adler32=1a2b3c4d} header, if the server sent one. */
    static String adler32Digest(List<String> digests) {
        for (String header : digests) {
            for (String part : header.split(",")) {
                String[] kv = part.trim().split("=", 2);
                if (kv.length == 2 && kv[0].equalsIgnoreCase("adler32") && kv[1].trim().matches("[0-9a-fA-F]{1,8}")) {
                    return String.format("%08x", Long.parseLong(kv[1].trim(), 16));
                }
            }
        }
        return null;
    }

    @Override
    public CopyResult transfer(CopyRequest req, SourceStat stat, TransferProgress progress) throws MoverException {
        long size = stat.size();
        long t0 = System.nanoTime();
        int streams = stat.ranges() && size >= PARALLEL_THRESHOLD ? Math.max(1, Math.min(16, req.streams())) : 1;
        Adler32Stream body;
        ExecutorService pool = null;
        try {
            if (streams > 1) {
                pool = Executors.newFixedThreadPool(streams + 1);
                body = new Adler32Stream(new RangeStream(req.source(), size, streams, pool), progress);
            } else {
                HttpResponse<InputStream> get = sendStream(HttpRequest.newBuilder(req.source()).GET());
                check(get.statusCode(), "transfer", "source " + req.source());
                body = new Adler32Stream(get.body(), progress);
            }
            Adler32Stream counted = body;
            HttpRequest.BodyPublisher publisher = size >= 0
                    ? HttpRequest.BodyPublishers.fromPublisher(HttpRequest.BodyPublishers.ofInputStream(() -> counted), size)
                    : HttpRequest.BodyPublishers.ofInputStream(() -> counted);
            HttpResponse<Void> put = send(HttpRequest.newBuilder(req.destination()).PUT(publisher), "transfer");
            if (put.statusCode() >= 300) {
                check(put.statusCode(), "transfer", "destination " + req.destination());
            }
            long transferMillis = (System.nanoTime() - t0) / 1_000_000;
            if ((size >= 0 && body.bytes() != size) || (req.expectedSize() != null && body.bytes() != req.expectedSize())) {
                throw new MoverException(MoverException.Code.SIZE_MISMATCH, "transfer",
                        "moved " + body.bytes() + " bytes of " + (size >= 0 ? size : req.expectedSize()));
            }
            long c0 = System.nanoTime();
            verify(req, body.hex());
            return new CopyResult(body.bytes(), body.hex(), streams, transferMillis, (System.nanoTime() - c0) / 1_000_000);
        } catch (MoverException | RuntimeException e) {
            removeQuietly(req.destination());
            MoverException aborted = progress.aborted("transfer");
            if (aborted != null) {
                throw aborted;
            }
            if (e instanceof UncheckedIOException io) {
                throw ioFailure(io.getCause(), "transfer");
            }
            throw e;
        } finally {
            if (pool != null) {
                pool.shutdownNow();
            }
        }
    }

    private void verify(CopyRequest req, String sourceAdler) throws MoverException {
        String mode = req.verify() == null ? "none" : req.verify();
        if (!mode.equals("none") && req.expectedAdler32() != null && !req.expectedAdler32().equalsIgnoreCase(sourceAdler)) {
            throw new MoverException(MoverException.Code.CHECKSUM_MISMATCH, "checksum",
                    "the source's ADLER32 is " + sourceAdler + ", the job says " + req.expectedAdler32());
        }
        if (mode.equals("target") || mode.equals("both")) {
            HttpResponse<InputStream> back = sendStream(HttpRequest.newBuilder(req.destination()).GET());
            check(back.statusCode(), "checksum", "destination " + req.destination());
            try (Adler32Stream s = new Adler32Stream(back.body())) {
                s.transferTo(java.io.OutputStream.nullOutputStream());
                if (!s.hex().equals(sourceAdler)) {
                    throw new MoverException(MoverException.Code.CHECKSUM_MISMATCH, "checksum",
                            "the destination's ADLER32 is " + s.hex() + ", the source's " + sourceAdler);
                }
            } catch (IOException e) {
                throw ioFailure(e, "checksum");
            }
        }
    }

    @Override
    public void prepareDestination(CopyRequest req) throws MoverException {
        HttpResponse<Void> head = send(HttpRequest.newBuilder(req.destination()).method("HEAD", HttpRequest.BodyPublishers.noBody()), "prepare");
        if (head.statusCode() < 300) {
            if (!req.overwrite()) {
                throw new MoverException(MoverException.Code.DEST_EXISTS, "prepare", req.destination() + " exists and overwrite is off");
            }
            HttpResponse<Void> del = send(HttpRequest.newBuilder(req.destination()).DELETE(), "prepare");
            check(del.statusCode(), "prepare", "destination " + req.destination());
        } else if (head.statusCode() != 404) {
            check(head.statusCode(), "prepare", "destination " + req.destination());
        }
        for (URI parent : parents(req.destinationBase(), req.destination())) {
            HttpResponse<Void> mk = send(HttpRequest.newBuilder(parent).method("MKCOL", HttpRequest.BodyPublishers.noBody()), "prepare");
            // 201 created; 405 already exists
            if (mk.statusCode() != 201 && mk.statusCode() != 405) {
                check(mk.statusCode(), "prepare", "collection " + parent);
            }
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

    private void removeQuietly(URI destination) {
        try {
            http.send(HttpRequest.newBuilder(destination).timeout(Duration.ofSeconds(30)).DELETE().build(), HttpResponse.BodyHandlers.discarding());
        } catch (IOException e) {
            // the partial file stays; the next attempt replaces it (overwrite) or reports it
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The source read in {@code streams} parallel Range requests of CHUNK bytes, delivered in order. */
    private final class RangeStream extends InputStream {
        private final URI source;
        private final long size;
        private final int chunks;
        private final List<CompletableFuture<byte[]>> parts = new ArrayList<>();
        private final Semaphore window;
        private final ExecutorService pool;
        private int current = -1;
        private byte[] buffer = new byte[0];
        private int position;

        RangeStream(URI source, long size, int streams, ExecutorService pool) {
            this.source = source;
            this.size = size;
            this.chunks = (int) ((size + CHUNK - 1) / CHUNK);
            this.window = new Semaphore(streams * 2);
            this.pool = pool;
            for (int i = 0; i < chunks; i++) {
                parts.add(new CompletableFuture<>());
            }
            pool.submit(this::dispatch);
        }

        private void dispatch() {
            for (int i = 0; i < chunks; i++) {
                int index = i;
                try {
                    window.acquire();
                } catch (InterruptedException e) {
                    return;
                }
                pool.submit(() -> {
                    long from = index * CHUNK;
                    long to = Math.min(size, from + CHUNK) - 1;
                    try {
                        HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(source).timeout(timeout)
                                .header("Range", "bytes=" + from + "-" + to).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
                        if (r.statusCode() != 206 || r.body().length != to - from + 1) {
                            throw new IOException("range " + from + "-" + to + " answered " + r.statusCode() + " with " + r.body().length + " bytes");
                        }
                        parts.get(index).complete(r.body());
                    } catch (Exception e) {
                        parts.get(index).completeExceptionally(e);
                    }
                });
            }
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            while (position >= buffer.length) {
                if (current + 1 >= chunks) {
                    return -1;
                }
                if (current >= 0) {
                    parts.set(current, null);
                    window.release();
                }
                current++;
                try {
                    buffer = parts.get(current).get();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted", e);
                } catch (ExecutionException e) {
                    throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
                }
                position = 0;
            }
            int n = Math.min(len, buffer.length - position);
            System.arraycopy(buffer, position, b, off, n);
            position += n;
            return n;
        }
    }

    private HttpResponse<Void> send(HttpRequest.Builder b, String phase) throws MoverException {
        try {
            return http.send(b.timeout(timeout).build(), HttpResponse.BodyHandlers.discarding());
        } catch (IOException e) {
            throw ioFailure(e, phase);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MoverException(MoverException.Code.TIMEOUT, phase, "interrupted");
        }
    }

    private HttpResponse<InputStream> sendStream(HttpRequest.Builder b) throws MoverException {
        try {
            return http.send(b.timeout(timeout).build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            throw ioFailure(e, "transfer");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MoverException(MoverException.Code.TIMEOUT, "transfer", "interrupted");
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
        Throwable cause = e;
        while (cause.getCause() != null && !(cause instanceof HttpTimeoutException)) {
            cause = cause.getCause();
        }
        if (cause instanceof HttpTimeoutException || e instanceof HttpTimeoutException) {
            return new MoverException(MoverException.Code.TIMEOUT, phase, "timed out: " + e.getMessage());
        }
        if (cause instanceof MoverException m) {
            return m;
        }
        return new MoverException(MoverException.Code.CONNECTION_RESET, phase, "connection failed: " + e);
    }
}
