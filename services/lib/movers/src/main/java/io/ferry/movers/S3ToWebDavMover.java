package io.ferry.movers;

import java.net.URI;
import java.time.Duration;

/**
 * Copies from S3 to WebDAV. A destination SE that does HTTP third-party copy fetches the object itself from a
 * pre-signed GET URL, as FTS3 hands one to the pulling side: the URL carries the signature (the SE gets no keys, and
 * the URL lets it read that one object for a short while); the HTTP mover runs the COPY and checks size and checksum
 * as for any pull. Otherwise, or for an anonymous bucket, the bytes stream through Ferry.
 */
public final class S3ToWebDavMover extends ThirdPartyOrStreamed {

    /** A pull starts within seconds of the URL being made; S3 checks the expiry when the request arrives. */
    static final Duration PRESIGNED_VALIDITY = Duration.ofHours(1);

    private final S3Access s3;
    private final HttpMover http;

    public S3ToWebDavMover(S3Access s3, HttpMover http) {
        super(http.relay(s3, http.webDav()));
        this.s3 = s3;
        this.http = http;
    }

    @Override
    public CopyResult transfer(CopyRequest req, SourceStat stat, TransferProgress progress) throws MoverException {
        if (!req.thirdPartyCopy() || !(req.credentials().source() instanceof S3Keys keys)) {
            return streamed.transfer(req, stat, progress);
        }
        URI presigned = s3.presign(req.source(), "GET", PRESIGNED_VALIDITY, keys);
        // the puller needs no credential of ours for the source: the URL is its own
        CopyRequest pull = new CopyRequest(presigned, req.destination(), req.expectedSize(), req.expectedChecksum(), req.verify(), req.overwrite(),
                req.streams(), req.destinationBase(), true, null, new StorageCredentials(null, req.credentials().destination()), req.algorithm(),
                req.scitag(), req.archiveMetadata(), req.rateLimit());
        try {
            return http.transfer(pull, stat, progress);
        } catch (MoverException e) {
            throw withoutSignature(e, presigned, req.source());
        }
    }

    /** The failure as it is reported and stored: the pre-signed URL (a capability while it lasts) named by the object's URL. */
    static MoverException withoutSignature(MoverException e, URI presigned, URI object) {
        String message = String.valueOf(e.getMessage()).replace(presigned.toString(), object + " (pre-signed)");
        if (presigned.getRawQuery() != null) {
            message = message.replace(presigned.getRawQuery(), "(signature)");
        }
        return new MoverException(e.code(), e.phase(), message);
    }
}
