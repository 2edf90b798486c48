package io.ferry.movers;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * An object being written to S3. Bytes gather in a part-sized buffer: an object that fits in one part is sent with a
 * single PUT at commit, its MD5 known beforehand, so it goes with {@code Content-MD5} (the store refuses a body that
 * differs) and with its ADLER32 as user metadata ({@code x-amz-meta-adler32}, what a later stat reports); its ETag
 * is then checked against the MD5. A larger object becomes a {@link S3MultipartUpload}: each full buffer is sent as
 * a part on a pool thread while the next one fills, in a spare buffer from the access's shared budget ({@link S3Parts});
 * without one, the part is sent from the buffer it was filled in before the next one fills. An upload closed without
 * commit, or failed, leaves no object and no pending multipart upload behind.
 */
final class S3Upload implements StorageAccess.Upload {

    private final S3Requests requests;
    private final S3ObjectUrl url;
    private final StorageCredential credential;
    private final long size;
    private final S3Parts policy;
    private final int partSize;
    private final String phase;
    private final ChecksumAlgorithm.Sum adler32 = ChecksumAlgorithm.ADLER32.start();
    /** Full-size part buffers the parts sent gave back. */
    private final BlockingQueue<byte[]> free;
    /** Spare buffers this upload holds (in flight or free), taken from the shared budget and given back at close. */
    private int spares;
    private byte[] buffer;
    private int filled;
    private long written;
    private int parts;
    private S3MultipartUpload multipart;
    private boolean open = true;
    private boolean committed;

    S3Upload(S3Requests requests, S3ObjectUrl url, StorageCredential credential, long size, S3Parts policy, String phase) {
        this.requests = requests;
        this.url = url;
        this.credential = credential;
        this.size = size;
        this.policy = policy;
        // a known size never needs more than S3's 10000 parts (the budget counts buffers: such an object's are larger)
        this.partSize = size > (long) policy.size() * S3MultipartUpload.MAX_PARTS
                ? (int) Math.min(Integer.MAX_VALUE - 8, (size + S3MultipartUpload.MAX_PARTS - 1) / S3MultipartUpload.MAX_PARTS) : policy.size();
        this.phase = phase;
        this.free = new ArrayBlockingQueue<>(policy.inFlight() + 1);
        // a small object's buffer is its size; one of unknown size starts small and grows up to a part
        this.buffer = new byte[(int) Math.min(this.partSize, size >= 0 ? size : 256 << 10)];
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        if (!open) {
            throw new ClosedChannelException();
        }
        int n = src.remaining();
        while (src.hasRemaining()) {
            if (filled == buffer.length) {
                if (buffer.length < partSize) {
                    buffer = Arrays.copyOf(buffer, (int) Math.min(partSize, Math.max(64 << 10, (long) buffer.length * 2)));
                } else {
                    sendPart();  // only once more bytes come: an object of exactly one part stays a single PUT
                }
            }
            int take = Math.min(src.remaining(), buffer.length - filled);
            src.get(buffer, filled, take);
            adler32.update(buffer, filled, take);
            filled += take;
            written += take;
        }
        return n;
    }

    /**
     * The full buffer as the next part (the multipart upload started with the first): sent on a pool thread while a
     * spare buffer fills, or, with no spare buffer to be had, sent here before the same buffer fills again.
     */
    private void sendPart() throws IOException {
        try {
            if (multipart == null) {
                multipart = S3MultipartUpload.start(requests, url, credential, Map.of(), policy.pool(), policy.inFlight(), phase);
            }
            byte[] next = spareBuffer();
            if (next == null) {
                multipart.sendHere(++parts, buffer, filled);
            } else {
                multipart.send(++parts, buffer, filled, free::offer);
                buffer = next;
            }
        } catch (MoverException e) {
            throw new IOException(e.getMessage(), e);
        }
        filled = 0;
    }

    /** A buffer to fill while the full one is sent: one this upload's parts gave back, a new one the budget allows, or null. */
    private byte[] spareBuffer() throws MoverException {
        byte[] next = free.poll();
        if (next == null && spares < policy.inFlight() && policy.spareBuffers().tryAcquire()) {
            spares++;
            next = new byte[partSize];
        }
        if (next == null && spares > 0) {
            try {
                next = free.take();  // one of this upload's parts gives its buffer back when it has been sent (or failed)
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new MoverException(MoverException.Code.CONNECTION_RESET, phase, "interrupted while a part of " + url + " was sent");
            }
        }
        return next;
    }

    @Override
    public void commit() throws MoverException {
        if (!open) {
            throw new MoverException(MoverException.Code.HTTP_ERROR, phase, "the upload of " + url + " was closed already");
        }
        try {
            if (size >= 0 && written != size) {
                throw new MoverException(MoverException.Code.SIZE_MISMATCH, phase, "wrote " + written + " bytes of " + size + " to " + url);
            }
            if (multipart == null) {
                putWhole();
            } else {
                if (filled > 0) {
                    multipart.send(++parts, buffer, filled, free::offer);
                }
                try {
                    multipart.complete();
                } catch (MoverException e) {
                    removeQuietly();  // completed but wrong, or in an unknown state: no object of this upload stays
                    throw e;
                }
            }
            committed = true;
        } finally {
            close();
        }
    }

    /** The single PUT of an object that fits in one part. */
    private void putWhole() throws MoverException {
        byte[] md5 = S3MultipartUpload.md5(buffer, filled);
        Map<String, String> headers = new HashMap<>();
        headers.put("Content-MD5", Base64.getEncoder().encodeToString(md5));
        headers.put("x-amz-meta-adler32", adler32.hex());
        byte[] data = buffer;
        int length = filled;
        try {
            HttpWire.Response r = requests.sendReplayable("PUT", url, Map.of(), headers, credential,
                    sink -> sink.write(ByteBuffer.wrap(data, 0, length)), length);
            S3Errors.check(r, phase, "destination " + url);
            String etag = S3Access.unquote(r.header("etag"));
            r.discard();
            String hex = HexFormat.of().formatHex(md5);
            // an ETag that is no 32 hex digits (some gateways) says nothing about the bytes and is not compared: Content-MD5
            // had the store check them already. AWS's SSE-KMS and SSE-C ETags are 32 hex digits but no MD5: such
            // buckets would refuse every upload here.
            if (etag != null && ChecksumAlgorithm.isHex(etag, 32, 32) && !etag.equalsIgnoreCase(hex)) {
                removeQuietly();
                throw new MoverException(MoverException.Code.CHECKSUM_MISMATCH, phase, url + " was stored with ETag " + etag + ", its MD5 is " + hex);
            }
        } catch (IOException e) {
            throw HttpMover.ioFailure(e, phase);
        }
    }

    private void removeQuietly() {
        try (HttpWire.Response r = requests.send("DELETE", url, Map.of(), Map.of(), credential)) {
            r.discard();
        } catch (IOException e) {
            // the object stays; the next attempt replaces it
        }
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    /** Abandons what was not committed: a multipart upload is aborted (a single PUT was never sent). */
    @Override
    public void close() {
        if (!open) {
            return;
        }
        open = false;
        if (!committed && multipart != null) {
            multipart.abort();
        }
        buffer = null;
        free.clear();
        policy.spareBuffers().release(spares);  // no part is on its way any more: complete and abort wait for them
        spares = 0;
    }
}
