package io.ferry.movers;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * One S3 multipart upload: started with CreateMultipartUpload, parts sent in parallel (each on its own connection,
 * at most {@code inFlight} at once, each with its {@code Content-MD5} so the store checks it and its ETag checked
 * against that MD5), finished with CompleteMultipartUpload listing the parts' ETags, whose answer's ETag must be the
 * MD5 of the parts' MD5s followed by {@code -N}, or abandoned with AbortMultipartUpload (no parts left behind).
 */
final class S3MultipartUpload {

    private static final Pattern UPLOAD_ID = Pattern.compile("<UploadId>([^<]{1,1024})</UploadId>");
    private static final Pattern ETAG = Pattern.compile("<ETag>([^<]{1,200})</ETag>");
    /** S3's limit on a multipart upload's parts. */
    static final int MAX_PARTS = 10_000;

    private final S3Requests requests;
    private final S3ObjectUrl url;
    private final StorageCredential credential;
    private final String uploadId;
    private final ExecutorService pool;
    private final Semaphore slots;
    private final int inFlight;
    private final String phase;
    /** Each part's MD5 by part number, as sent and as its ETag confirmed. */
    private final ConcurrentSkipListMap<Integer, byte[]> partMd5s = new ConcurrentSkipListMap<>();
    private volatile MoverException failed;

    private S3MultipartUpload(S3Requests requests, S3ObjectUrl url, StorageCredential credential, String uploadId, ExecutorService pool,
                              int inFlight, String phase) {
        this.requests = requests;
        this.url = url;
        this.credential = credential;
        this.uploadId = uploadId;
        this.pool = pool;
        this.inFlight = inFlight;
        this.slots = new Semaphore(inFlight);
        this.phase = phase;
    }

    /** Starts an upload to {@code url} with the object's {@code headers} (user metadata). */
    static S3MultipartUpload start(S3Requests requests, S3ObjectUrl url, StorageCredential credential, Map<String, String> headers,
                                   ExecutorService pool, int inFlight, String phase) throws MoverException {
        try {
            // sent as an upload of no bytes: never repeated on a fresh connection, which could start a second upload
            HttpWire.Response r = requests.send("POST", url, Map.of("uploads", ""), headers, credential, sink -> { }, 0);
            S3Errors.check(r, phase, "creating the multipart upload of " + url);
            String body = S3Errors.text(r);
            String id = S3Errors.first(UPLOAD_ID, body);
            if (id == null) {
                throw new MoverException(MoverException.Code.HTTP_ERROR, phase, url + " answered CreateMultipartUpload without an UploadId");
            }
            return new S3MultipartUpload(requests, url, credential, id, pool, inFlight, phase);
        } catch (IOException e) {
            throw HttpMover.ioFailure(e, phase);
        }
    }

    /**
     * Sends part {@code number} ({@code length} bytes of {@code data}) on a pool thread once fewer than
     * {@code inFlight} parts are on their way; {@code done} gets the array back when the part is sent or failed.
     * Throws the failure of a part sent before.
     */
    void send(int number, byte[] data, int length, Consumer<byte[]> done) throws MoverException {
        if (number > MAX_PARTS) {
            throw new MoverException(MoverException.Code.HTTP_ERROR, phase, url + ": more than " + MAX_PARTS + " parts (raise the part size)");
        }
        try {
            slots.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MoverException(MoverException.Code.CONNECTION_RESET, phase, "interrupted while waiting to send part " + number);
        }
        throwIfFailed();
        try {
            pool.execute(() -> {
                try {
                    sendPart(number, data, length);
                } catch (MoverException e) {
                    fail(e);
                } catch (IOException | RuntimeException e) {
                    fail(HttpMover.ioFailure(e, phase));
                } finally {
                    done.accept(data);
                    slots.release();
                }
            });
        } catch (RuntimeException e) {
            slots.release();
            done.accept(data);
            throw e;
        }
    }

    /** Sends part {@code number} on the calling thread (no spare buffer to send it from while the next one fills). */
    void sendHere(int number, byte[] data, int length) throws MoverException {
        if (number > MAX_PARTS) {
            throw new MoverException(MoverException.Code.HTTP_ERROR, phase, url + ": more than " + MAX_PARTS + " parts (raise the part size)");
        }
        MoverException earlier = failed;
        if (earlier != null) {
            throw earlier;
        }
        try {
            sendPart(number, data, length);
        } catch (MoverException e) {
            fail(e);
            throw e;
        } catch (IOException | RuntimeException e) {
            MoverException m = HttpMover.ioFailure(e, phase);
            fail(m);
            throw m;
        }
    }

    private void sendPart(int number, byte[] data, int length) throws IOException, MoverException {
        if (failed != null) {
            return;
        }
        byte[] md5 = md5(data, length);
        HttpWire.Body body = sink -> sink.write(ByteBuffer.wrap(data, 0, length));
        HttpWire.Response r = requests.sendReplayable("PUT", url, Map.of("partNumber", Integer.toString(number), "uploadId", uploadId),
                Map.of("Content-MD5", Base64.getEncoder().encodeToString(md5)), credential, body, length);
        S3Errors.check(r, phase, "part " + number + " of " + url);
        String etag = S3Access.unquote(r.header("etag"));
        r.discard();
        if (etag == null || !etag.equalsIgnoreCase(HexFormat.of().formatHex(md5))) {
            throw new MoverException(MoverException.Code.CHECKSUM_MISMATCH, phase, "part " + number + " of " + url + " was stored with ETag "
                    + etag + ", its MD5 is " + HexFormat.of().formatHex(md5));
        }
        partMd5s.put(number, md5);
    }

    private void fail(MoverException e) {
        synchronized (this) {
            if (failed == null) {
                failed = e;
            }
        }
    }

    private void throwIfFailed() throws MoverException {
        MoverException e = failed;
        if (e != null) {
            slots.release();
            throw e;
        }
    }

    /** Waits until no part is on its way (each ends by its answer or the I/O timeout). */
    private void awaitParts() {
        slots.acquireUninterruptibly(inFlight);
        slots.release(inFlight);
    }

    /**
     * Waits for the parts, then completes the upload; the object's ETag is checked against the parts' MD5s. Answers
     * the ETag. On failure the upload is left for {@link #abort()}.
     */
    String complete() throws MoverException {
        awaitParts();
        MoverException e = failed;
        if (e != null) {
            throw e;
        }
        StringBuilder xml = new StringBuilder("<CompleteMultipartUpload>");
        MessageDigest ofParts = md5();
        partMd5s.forEach((number, md5) -> {
            xml.append("<Part><PartNumber>").append(number).append("</PartNumber><ETag>\"").append(HexFormat.of().formatHex(md5))
                    .append("\"</ETag></Part>");
            ofParts.update(md5);
        });
        xml.append("</CompleteMultipartUpload>");
        String expected = HexFormat.of().formatHex(ofParts.digest()) + "-" + partMd5s.size();
        byte[] bytes = xml.toString().getBytes(StandardCharsets.UTF_8);
        try {
            HttpWire.Response r = requests.send("POST", url, Map.of("uploadId", uploadId), Map.of("Content-Type", "application/xml"), credential,
                    sink -> sink.write(ByteBuffer.wrap(bytes)), bytes.length);
            S3Errors.check(r, phase, "completing the multipart upload of " + url);
            String body = S3Errors.text(r);
            if (body.contains("<Error>")) {
                // S3 answers 200 before it has assembled the parts, and a failure then comes in the body
                throw S3Errors.failure(500, body, phase, "completing the multipart upload of " + url);
            }
            String etag = S3Access.unquote(S3Errors.first(ETAG, body));
            if (etag == null) {
                // Ceph RadosGW 16 (pacific) answers with an empty <ETag/>: the object's own HEAD tells it
                etag = storedETag();
            }
            if (etag == null || !etag.equalsIgnoreCase(expected)) {
                throw new MoverException(MoverException.Code.CHECKSUM_MISMATCH, phase, url + " was assembled with ETag " + etag
                        + ", its " + partMd5s.size() + " parts' MD5s give " + expected);
            }
            return etag;
        } catch (IOException io) {
            throw HttpMover.ioFailure(io, phase);
        }
    }

    /** The ETag the store gives the object now, null when it names none. */
    private String storedETag() throws IOException, MoverException {
        try (HttpWire.Response head = requests.send("HEAD", url, Map.of(), Map.of(), credential)) {
            S3Errors.check(head, phase, "object " + url);
            return S3Access.unquote(head.header("etag"));
        }
    }

    /** Abandons the upload: no part is kept by the store. Waits for the parts on their way first, whose bytes it would keep otherwise. */
    void abort() {
        fail(new MoverException(MoverException.Code.CANCELED, phase, "the upload of " + url + " was abandoned"));
        awaitParts();
        try (HttpWire.Response r = requests.send("DELETE", url, Map.of("uploadId", uploadId), Map.of(), credential)) {
            r.discard();
        } catch (IOException e) {
            // the store drops the parts itself after its abandoned-upload lifetime; nothing else to do here
        }
    }

    static byte[] md5(byte[] data, int length) {
        MessageDigest md5 = md5();
        md5.update(data, 0, length);
        return md5.digest();
    }

    static MessageDigest md5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has MD5", e);
        }
    }
}
