package io.ferry.movers;

import java.net.URI;

/**
 * Copies from WebDAV to S3. A source SE that does HTTP third-party copy sends the file itself to a pre-signed PUT URL,
 * as FTS3 has gfal2 push to S3: a {@code COPY} to the source with the URL as {@code Destination} (the SE gets no keys,
 * and the URL lets it write that one object for a short while), its progress markers followed as in a pull. Ferry then
 * checks the object with its own keys: its size, and its checksum. S3 tells an MD5 without reading (a single PUT's
 * ETag) but no ADLER32: the SE's PUT carries none of the {@code x-amz-meta-adler32} Ferry's own uploads add, so an
 * ADLER32 copy reads the object back to compute it. A file larger than S3's single PUT, a source that turns out not to
 * do COPY, or an anonymous bucket: the bytes stream through Ferry, a multipart upload for large files.
 */
public final class WebDavToS3Mover extends ThirdPartyOrStreamed {

    /** S3's largest single PUT; a pre-signed URL is good for one PUT, not for the parts of a multipart upload. */
    static final long MAX_SINGLE_PUT = 5L << 30;

    private final S3Access s3;
    private final HttpMover http;

    public WebDavToS3Mover(S3Access s3, HttpMover http) {
        super(http.relay(http.webDav(), s3));
        this.s3 = s3;
        this.http = http;
    }

    /** Whether a file of {@code size} bytes (-1: not known) can be pushed in the single PUT a pre-signed URL allows. */
    static boolean fitsOnePut(long size) {
        return size >= 0 && size <= MAX_SINGLE_PUT;
    }

    @Override
    public CopyResult transfer(CopyRequest req, SourceStat stat, TransferProgress progress) throws MoverException {
        long size = req.expectedSize() != null ? req.expectedSize() : stat.size();
        if (!req.thirdPartyCopy() || !(req.credentials().destination() instanceof S3Keys keys) || !fitsOnePut(size)) {
            return streamed.transfer(req, stat, progress);
        }
        URI presigned = s3.presign(req.destination(), "PUT", S3ToWebDavMover.PRESIGNED_VALIDITY, keys);
        try {
            return push(req, stat, progress, presigned, keys);
        } catch (ThirdPartyCopy.Unsupported e) {
            // registered as doing third-party copy, but the source SE does not: the data flows through Ferry instead
            return streamed.transfer(req, stat, progress);
        } catch (MoverException e) {
            throw S3ToWebDavMover.withoutSignature(e, presigned, req.destination());
        }
    }

    private CopyResult push(CopyRequest req, SourceStat stat, TransferProgress progress, URI presigned, S3Keys keys)
            throws MoverException, ThirdPartyCopy.Unsupported {
        long t0 = System.nanoTime();
        HttpMover.Attempt attempt = new HttpMover.Attempt();
        try {
            http.push(req, presigned, progress, attempt);
            long pushed = System.nanoTime();
            SourceStat copied = s3.stat(req.destination(), req.checksums() ? req.algorithm() : null, keys, "checksum");
            String sum = ThirdPartyCopy.verify(req, stat, copied,
                    () -> RelayMover.readAndSum(s3, req.destination(), keys, req.algorithm(), "checksum"), () -> digestOrSum(req));
            return new CopyResult(copied.size(), sum, 1, (pushed - t0) / 1_000_000, (System.nanoTime() - pushed) / 1_000_000);
        } catch (MoverException e) {
            if (attempt.wrote) {
                try {
                    s3.delete(req.destination(), keys, "cleanup");
                } catch (MoverException ignored) {
                    // the partial object stays; the next attempt replaces it (overwrite) or reports it
                }
            }
            MoverException aborted = progress.aborted("transfer");
            throw aborted != null ? aborted : e;
        }
    }

    /** The source's checksum when the job gives none: its SE's digest, else the source read whole. */
    private String digestOrSum(CopyRequest req) throws MoverException {
        StorageAccess source = http.webDav();
        StorageCredential credential = req.credentials().source();
        String told = source.stat(req.source(), req.algorithm(), credential, "checksum").checksum();
        return told != null ? told : RelayMover.readAndSum(source, req.source(), credential, req.algorithm(), "checksum");
    }
}
