package io.ferry.movers;

import java.net.URI;

/**
 * Moves one file between two URLs of one scheme family. The work is split the way the scheduler runs it: {@link #stat}
 * and {@link #prepareDestination} in the prepare phase (possibly long before), {@link #transfer} in the transfer phase.
 */
public interface Mover {

    /** Source exists? Its size, range support and checksum if the storage offers one. */
    SourceStat stat(URI source) throws MoverException;

    /** {@link #stat(URI)} of a source that must lie below its SE's base URL {@code sourceBase} (null: no SE confines it). */
    default SourceStat stat(URI source, URI sourceBase) throws MoverException {
        return stat(source);
    }

    /** {@link #stat(URI, URI)} of the request's source, presenting what the request gives for it ({@link CopyRequest#credentials()}). */
    default SourceStat stat(CopyRequest req) throws MoverException {
        return stat(req.source(), req.sourceBase());
    }

    /**
     * An existing destination's size and checksum in the request's algorithm (the SE's digest, else the file read and summed), presenting what the
     * request gives for the destination: what FTS3's {@code dst_file_report} tells about a file the copy did not replace.
     */
    SourceStat statDestination(CopyRequest req) throws MoverException;

    /**
     * An existing destination's size, modification time and checksum in the request's algorithm only when the SE gives
     * one without the file being read (null otherwise): what a sync check asks first, so that a destination that
     * cannot match is never read.
     */
    default SourceStat destinationStat(CopyRequest req) throws MoverException {
        return statDestination(req);
    }

    /**
     * The source read whole and summed in the request's algorithm, presenting what the request gives for the source:
     * for a caller whose {@link #stat} got no digest from the SE (a sync check). Null: this mover cannot read it.
     */
    default String sourceChecksum(CopyRequest req) throws MoverException {
        return null;
    }

    /** DEST_EXISTS unless overwrite (an existing file is then removed); parent collections created. */
    void prepareDestination(CopyRequest req) throws MoverException;

    /**
     * Streams the data, checking size and checksum as the request asks; on failure removes the destination only if
     * this attempt wrote (or began writing) it, never a file that was there before.
     */
    CopyResult transfer(CopyRequest req, SourceStat stat, TransferProgress progress) throws MoverException;

    /** Both phases at once, for a copy nobody schedules. */
    default CopyResult copy(CopyRequest req) throws MoverException {
        SourceStat stat = stat(req);
        checkSource(req, stat);
        prepareDestination(req);
        return transfer(req, stat, TransferProgress.unwatched());
    }

    /** What the prepare phase can already refuse: a size or an SE-reported checksum that differ from the job's. */
    static void checkSource(CopyRequest req, SourceStat stat) throws MoverException {
        if (req.expectedSize() != null && stat.size() >= 0 && stat.size() != req.expectedSize()) {
            throw new MoverException(MoverException.Code.SIZE_MISMATCH, "prepare",
                    "source has " + stat.size() + " bytes, the job says " + req.expectedSize());
        }
        String mode = req.verifyMode();
        if ((mode.equals("source") || mode.equals("both")) && stat.checksum() != null && req.expectedChecksum() != null
                && !stat.checksum().equalsIgnoreCase(req.expectedChecksum())) {
            throw ChecksumMismatch.sourceAndJob("prepare", req.algorithm(), stat.checksum(), req.expectedChecksum());
        }
    }

    /**
     * Writes {@code size} pseudo-random bytes to {@code target}, a file Ferry creates itself (a link probe's source):
     * parent collections below {@code base} are made, an existing file is replaced. {@code credential}: what to
     * present to the SE (null: the mover's own identity). Answers the content's ADLER32 (8 hex digits).
     */
    String create(URI target, URI base, long size, StorageCredential credential) throws MoverException;

    /** Removes {@code target}, below its SE's {@code base} (a file Ferry created or copied for itself); one that is not there is no failure. */
    void remove(URI target, URI base, StorageCredential credential) throws MoverException;
}
