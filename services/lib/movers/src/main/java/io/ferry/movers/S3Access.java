package io.ferry.movers;

import javax.net.ssl.SSLSocketFactory;
import java.io.IOException;
import java.net.URI;
import java.nio.channels.ReadableByteChannel;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;

/**
 * S3 object stores (Ceph RadosGW, cloud buckets, s3proxy) as {@code s3://} (plain HTTP) and {@code s3s://} (HTTPS)
 * URLs, on the mover's keep-alive HTTP client: HEAD for stat, GET to read, DELETE, and uploads as a single PUT or,
 * past one part, a multipart upload with parts in parallel (see {@link S3Upload}). Requests are signed with AWS
 * Signature Version 4 when the side presents {@link S3Keys}, anonymous without a credential. Stat reports an MD5
 * only where the store tells it without reading: a single-part ETag (32 hex digits; a multipart ETag, {@code …-N},
 * is no MD5 of the object); an ADLER32 only where it was stored as {@code x-amz-meta-adler32} user metadata, which
 * Ferry writes with every single-PUT upload. S3 has no directories: {@link #makeParents} does nothing. It also
 * makes pre-signed URLs, for an HTTP third-party copy whose other side pulls from or pushes to S3 itself.
 */
public final class S3Access implements StorageAccess, DirectoryListing {

    /** S3's smallest part (but for the last one). */
    public static final int MIN_PART_SIZE = 5 << 20;
    public static final int DEFAULT_PART_SIZE = 8 << 20;
    public static final int DEFAULT_PARTS_IN_FLIGHT = 4;
    /** Part buffers all uploads together may hold beyond the one each fills: 512 MiB. */
    public static final long DEFAULT_PART_MEMORY = 512L << 20;

    private final S3Requests requests;
    private final S3Parts parts;

    /** Parts of {@link #DEFAULT_PART_SIZE}, {@link #DEFAULT_PARTS_IN_FLIGHT} at once, {@link #DEFAULT_PART_MEMORY}, the JDK's TLS trust. */
    public S3Access(Duration ioTimeout) {
        this(ioTimeout, StorageTls.of((SSLSocketFactory) SSLSocketFactory.getDefault()), DEFAULT_PART_SIZE, DEFAULT_PARTS_IN_FLIGHT,
                DEFAULT_PART_MEMORY);
    }

    /**
     * @param ioTimeout     per-request I/O timeout
     * @param tls           how s3s:// connections are made (whom they trust)
     * @param partSize      bytes per multipart part, at least {@link #MIN_PART_SIZE}; objects up to it go in one PUT
     * @param partsInFlight parts sent at once by one upload, each on its own connection
     * @param partMemory    heap all uploads together may hold for parts beyond the one part each fills; an upload that
     *                      finds none free sends its parts one at a time
     */
    public S3Access(Duration ioTimeout, StorageTls tls, int partSize, int partsInFlight, long partMemory) {
        this(new HttpWire(Duration.ofSeconds(10), ioTimeout, tls), Clock.systemUTC(), partSize, partsInFlight, partMemory);
    }

    S3Access(HttpWire wire, Clock clock, int partSize, int partsInFlight, long partMemory) {
        if (partSize < MIN_PART_SIZE) {
            throw new IllegalArgumentException("S3 parts are at least 5 MiB, not " + partSize);
        }
        if (partsInFlight < 1) {
            throw new IllegalArgumentException("at least one part in flight");
        }
        this.requests = new S3Requests(wire, clock);
        ExecutorService pool = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "s3-part-upload");
            t.setDaemon(true);
            return t;
        });
        this.parts = new S3Parts(partSize, partsInFlight, pool, new Semaphore((int) Math.min(Integer.MAX_VALUE, Math.max(0, partMemory) / partSize)));
    }

    /** Spare part buffers no upload holds now (tests see that uploads give theirs back). */
    int freePartBuffers() {
        return parts.spareBuffers().availablePermits();
    }

    @Override
    public Set<String> schemes() {
        return Set.of("s3", "s3s");
    }

    @Override
    public SourceStat stat(URI url, ChecksumAlgorithm algorithm, StorageCredential credential, String phase) throws MoverException {
        S3ObjectUrl object = object(url, credential, phase);
        try (HttpWire.Response head = requests.send("HEAD", object, Map.of(), Map.of(), credential)) {
            S3Errors.check(head, phase, "object " + object);
            return new SourceStat(head.contentLength(), true, algorithm == null ? null : checksum(head, algorithm),
                    HttpDates.parse(head.header("last-modified")));
        } catch (IOException e) {
            throw HttpMover.ioFailure(e, phase);
        }
    }

    /** What the store tells of the object's checksum in {@code algorithm} without reading it, else null. */
    private static String checksum(HttpWire.Response head, ChecksumAlgorithm algorithm) {
        if (algorithm == ChecksumAlgorithm.MD5) {
            String etag = unquote(head.header("etag"));
            return etag != null && ChecksumAlgorithm.isHex(etag, 32, 32) ? etag.toLowerCase(java.util.Locale.ROOT) : null;
        }
        String adler = head.header("x-amz-meta-adler32");
        return adler != null && ChecksumAlgorithm.isHex(adler.trim(), 1, 8) ? String.format("%08x", Long.parseLong(adler.trim(), 16)) : null;
    }

    @Override
    public boolean exists(URI url, StorageCredential credential, String phase) throws MoverException {
        S3ObjectUrl object = object(url, credential, phase);
        try (HttpWire.Response head = requests.send("HEAD", object, Map.of(), Map.of(), credential)) {
            if (head.status == 404) {
                head.discard();
                return false;
            }
            S3Errors.check(head, phase, "object " + object);
            head.discard();
            return true;
        } catch (IOException e) {
            throw HttpMover.ioFailure(e, phase);
        }
    }

    @Override
    public ReadableByteChannel read(URI url, StorageCredential credential, String phase) throws MoverException {
        S3ObjectUrl object = object(url, credential, phase);
        try {
            HttpWire.Response get = requests.send("GET", object, Map.of(), Map.of(), credential);
            S3Errors.check(get, phase, "object " + object);
            return new ResponseBodyChannel(get);
        } catch (IOException e) {
            throw HttpMover.ioFailure(e, phase);
        }
    }

    @Override
    public Upload write(URI url, long size, StorageCredential credential, String phase) throws MoverException {
        return new S3Upload(requests, object(url, credential, phase), credential, size, parts, phase);
    }

    /** The object {@code url} names, refused before any request when it or the credential cannot be used. */
    private static S3ObjectUrl object(URI url, StorageCredential credential, String phase) throws MoverException {
        S3ObjectUrl object = S3ObjectUrl.parse(url, phase);
        S3Requests.checkCredential(credential, object, phase);
        return object;
    }

    /** Every object below the directory's prefix ({@link S3Listing}). */
    @Override
    public Listing list(URI dir, URI base, StorageCredential credential, java.util.function.Predicate<String> keep, int limit) throws MoverException {
        S3ObjectUrl.parse(dir.resolve("x"), "list");  // the bucket and the prefix as an object URL would have them
        if (credential instanceof BearerToken) {
            throw new MoverException(MoverException.Code.PERMISSION_DENIED, "list", "an S3 store takes S3 keys, not a bearer token (" + dir + ")");
        }
        return new S3Listing(requests).list(dir, credential, keep, limit);
    }

    /** S3 has no directories: an object's key is the whole path. */
    @Override
    public void makeParents(URI base, URI url, StorageCredential credential, String phase) throws MoverException {
        S3ObjectUrl.parse(url, phase);
    }

    @Override
    public void delete(URI url, StorageCredential credential, String phase) throws MoverException {
        S3ObjectUrl object = object(url, credential, phase);
        try (HttpWire.Response r = requests.send("DELETE", object, Map.of(), Map.of(), credential)) {
            if (r.status == 404) {
                r.discard();
                return;
            }
            S3Errors.check(r, phase, "object " + object);
            r.discard();
        } catch (IOException e) {
            throw HttpMover.ioFailure(e, phase);
        }
    }

    /**
     * A pre-signed {@code https://} (for s3s) or {@code http://} (for s3) URL that lets its holder {@code method}
     * (GET or PUT) the object, without keys of its own, for {@code validity} (at most 7 days) from now: what Ferry
     * hands a WebDAV SE that pulls from or pushes to S3 in an HTTP third-party copy.
     */
    public URI presign(URI url, String method, Duration validity, S3Keys keys) throws MoverException {
        return presign(url, method, validity, keys, Instant.now());
    }

    /** {@link #presign(URI, String, Duration, S3Keys)} signed as at {@code at}. */
    URI presign(URI url, String method, Duration validity, S3Keys keys, Instant at) throws MoverException {
        if (!method.equals("GET") && !method.equals("PUT")) {
            throw new IllegalArgumentException("pre-signed URLs are made for GET and PUT, not " + method);
        }
        S3ObjectUrl object = S3ObjectUrl.parse(url, "prepare");
        boolean virtualHost = keys.virtualHostStyle();
        String query = new S3Signer(keys).presignedQuery(method, object.hostHeader(virtualHost), object.path(virtualHost), validity, at);
        return object.http(virtualHost, query);
    }

    /** An ETag without its quotes (null stays null). */
    static String unquote(String etag) {
        if (etag == null) {
            return null;
        }
        String t = etag.trim();
        if (t.startsWith("W/")) {
            t = t.substring(2);
        }
        return t.length() >= 2 && t.startsWith("\"") && t.endsWith("\"") ? t.substring(1, t.length() - 1) : t;
    }
}
