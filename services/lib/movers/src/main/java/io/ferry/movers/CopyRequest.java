package io.ferry.movers;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;

/**
 * One copy: source and destination URLs, what the file should be (size, and its checksum as the hex digits of
 * {@code algorithm}, both optional),
 * FTS3's checksum mode (none, source, target, both), whether an existing destination may be replaced, the number
 * of parallel streams, the destination SE's base URL (parent collections are created below it), whether an SE copies
 * the file itself (third-party copy: the destination SE pulls it, or, WebDAV to S3, the source SE pushes it), and the
 * source SE's base URL. The engine gives only
 * canonical URLs under the SEs' bases; the file mover also confines each side to its SE's base directory on disk
 * (links included), when one is given. {@code credentials} are what the copy presents to each SE (see
 * {@link StorageCredentials}). {@code algorithm}: what the copy computes and compares (null: ADLER32, FTS3's default).
 * {@code scitag}: the file's SciTag flow label (65–65535), sent to storage as the {@code SciTag} header of the copy's
 * requests so the SEs can mark its packets; null without one. {@code archiveMetadata}: FTS3's per-file archive
 * metadata (JSON text) for a tape destination, sent base64-encoded in the {@code ArchiveMetadata} header of the
 * request that writes the destination (the PUT, or the COPY its SE pulls with), as gfal2 sends it; null without.
 * {@code rateLimit}: what the copy's streamed bytes wait for (its job's and link's rate caps, shared with their other
 * copies); {@link RateLimit#NONE} without. A third-party copy's bytes do not pass through the mover: the scheduler
 * caps those by how many it starts.
 */
public record CopyRequest(URI source, URI destination, Long expectedSize, String expectedChecksum, String verify,
                          boolean overwrite, int streams, URI destinationBase, boolean thirdPartyCopy, URI sourceBase,
                          StorageCredentials credentials, ChecksumAlgorithm algorithm, Integer scitag, String archiveMetadata,
                          RateLimit rateLimit) {

    public CopyRequest {
        rateLimit = rateLimit == null ? RateLimit.NONE : rateLimit;
        credentials = credentials == null ? StorageCredentials.SERVICE : credentials;
        algorithm = algorithm == null ? ChecksumAlgorithm.ADLER32 : algorithm;
        if (scitag != null && (scitag < 65 || scitag > 65535)) {
            throw new IllegalArgumentException("a SciTag flow label is 65 to 65535, not " + scitag);
        }
    }

    /** A copy without a rate cap. */
    public CopyRequest(URI source, URI destination, Long expectedSize, String expectedChecksum, String verify, boolean overwrite, int streams,
                       URI destinationBase, boolean thirdPartyCopy, URI sourceBase, StorageCredentials credentials, ChecksumAlgorithm algorithm,
                       Integer scitag, String archiveMetadata) {
        this(source, destination, expectedSize, expectedChecksum, verify, overwrite, streams, destinationBase, thirdPartyCopy, sourceBase,
                credentials, algorithm, scitag, archiveMetadata, RateLimit.NONE);
    }

    /** A copy without archive metadata. */
    public CopyRequest(URI source, URI destination, Long expectedSize, String expectedChecksum, String verify, boolean overwrite, int streams,
                       URI destinationBase, boolean thirdPartyCopy, URI sourceBase, StorageCredentials credentials, ChecksumAlgorithm algorithm,
                       Integer scitag) {
        this(source, destination, expectedSize, expectedChecksum, verify, overwrite, streams, destinationBase, thirdPartyCopy, sourceBase,
                credentials, algorithm, scitag, null);
    }

    /** A copy without a SciTag flow label. */
    public CopyRequest(URI source, URI destination, Long expectedSize, String expectedChecksum, String verify, boolean overwrite, int streams,
                       URI destinationBase, boolean thirdPartyCopy, URI sourceBase, StorageCredentials credentials, ChecksumAlgorithm algorithm) {
        this(source, destination, expectedSize, expectedChecksum, verify, overwrite, streams, destinationBase, thirdPartyCopy, sourceBase,
                credentials, algorithm, null);
    }

    /** The same copy marked with {@code label} (null: unmarked). */
    public CopyRequest withSciTag(Integer label) {
        return new CopyRequest(source, destination, expectedSize, expectedChecksum, verify, overwrite, streams, destinationBase, thirdPartyCopy,
                sourceBase, credentials, algorithm, label, archiveMetadata, rateLimit);
    }

    /** The same copy with {@code metadata} (JSON text; null: none) for the destination's archive. */
    public CopyRequest withArchiveMetadata(String metadata) {
        return new CopyRequest(source, destination, expectedSize, expectedChecksum, verify, overwrite, streams, destinationBase, thirdPartyCopy,
                sourceBase, credentials, algorithm, scitag, metadata, rateLimit);
    }

    /** The same copy with its streamed bytes waiting for {@code limit} (null: none). */
    public CopyRequest withRateLimit(RateLimit limit) {
        return new CopyRequest(source, destination, expectedSize, expectedChecksum, verify, overwrite, streams, destinationBase, thirdPartyCopy,
                sourceBase, credentials, algorithm, scitag, archiveMetadata, limit);
    }

    /** {@code headers} of a request that writes the destination: marked, and with the archive metadata when there is some (a new map). */
    Map<String, String> towardDestination(Map<String, String> headers) {
        Map<String, String> out = new HashMap<>(marked(headers));
        if (archiveMetadata != null) {
            out.put("ArchiveMetadata", Base64.getEncoder().encodeToString(archiveMetadata.getBytes(StandardCharsets.UTF_8)));
        }
        return out;
    }

    /** {@code headers} with the {@code SciTag} header added when the copy has a label (a new map; the given one is not changed). */
    Map<String, String> marked(Map<String, String> headers) {
        if (scitag == null) {
            return headers;
        }
        Map<String, String> out = new HashMap<>(headers);
        out.put("SciTag", Integer.toString(scitag));
        return out;
    }

    /** An ADLER32 copy presenting {@code credentials}; {@code expectedAdler32}: 8 hex digits or null. */
    public CopyRequest(URI source, URI destination, Long expectedSize, String expectedAdler32, String verify, boolean overwrite, int streams,
                       URI destinationBase, boolean thirdPartyCopy, URI sourceBase, StorageCredentials credentials) {
        this(source, destination, expectedSize, expectedAdler32, verify, overwrite, streams, destinationBase, thirdPartyCopy, sourceBase,
                credentials, ChecksumAlgorithm.ADLER32);
    }

    /** A copy with the mover's own identity toward both SEs. */
    public CopyRequest(URI source, URI destination, Long expectedSize, String expectedAdler32, String verify, boolean overwrite, int streams,
                       URI destinationBase, boolean thirdPartyCopy, URI sourceBase) {
        this(source, destination, expectedSize, expectedAdler32, verify, overwrite, streams, destinationBase, thirdPartyCopy, sourceBase,
                StorageCredentials.SERVICE);
    }

    /** A copy whose source SE's base is not known to the mover (only its roots confine a file:// source). */
    public CopyRequest(URI source, URI destination, Long expectedSize, String expectedAdler32, String verify, boolean overwrite, int streams,
                       URI destinationBase, boolean thirdPartyCopy) {
        this(source, destination, expectedSize, expectedAdler32, verify, overwrite, streams, destinationBase, thirdPartyCopy, null);
    }

    /** A copy whose data flows through the mover. */
    public CopyRequest(URI source, URI destination, Long expectedSize, String expectedAdler32, String verify, boolean overwrite, int streams,
                       URI destinationBase) {
        this(source, destination, expectedSize, expectedAdler32, verify, overwrite, streams, destinationBase, false);
    }

    /** FTS3's checksum mode, "none" when not given. */
    public String verifyMode() {
        return verify == null ? "none" : verify;
    }

    /** Whether the copy computes its checksum while streaming (any mode but none). */
    public boolean checksums() {
        return !verifyMode().equals("none");
    }

    /** The algorithm a streamed copy computes as the bytes go by: null (counting only) when no mode asks for one. */
    public ChecksumAlgorithm streamedAlgorithm() {
        return checksums() ? algorithm : null;
    }
}
