package io.ferry.movers.xrootd;

import io.ferry.movers.ChecksumMismatch;
import io.ferry.movers.CopyRequest;
import io.ferry.movers.CopyResult;
import io.ferry.movers.Mover;
import io.ferry.movers.MoverException;
import io.ferry.movers.SourceStat;
import io.ferry.movers.ThirdPartyOrStreamed;
import io.ferry.movers.TransferProgress;

/**
 * root → root: by third-party copy when the destination SE pulls ({@link CopyRequest#thirdPartyCopy()}, the SE
 * registered so), the bytes going from server to server, else streamed through Ferry. After a pull the destination's
 * size and checksum are checked against the job's, as after a streamed copy; a wrong file is removed.
 */
public final class XrootdMover extends ThirdPartyOrStreamed {

    private final XrootdAccess access;
    private final XrootdThirdPartyCopy thirdParty;

    /** @param streamed the copy through Ferry between two XRootD servers, on {@code access}'s sessions */
    public XrootdMover(Mover streamed, XrootdAccess access, XrootdThirdPartyCopy thirdParty) {
        super(streamed);
        this.access = access;
        this.thirdParty = thirdParty;
    }

    @Override
    public CopyResult transfer(CopyRequest req, SourceStat stat, TransferProgress progress) throws MoverException {
        if (!req.thirdPartyCopy()) {
            return streamed.transfer(req, stat, progress);
        }
        long t0 = System.nanoTime();
        XrootdThirdPartyCopy.Result pulled = thirdParty.copy(req.source(), req.destination(), req.overwrite(), req.streamedAlgorithm(),
                req.credentials().source(), req.credentials().destination(), progress);
        try {
            if (req.expectedSize() != null && pulled.size() != req.expectedSize()) {
                throw new MoverException(MoverException.Code.SIZE_MISMATCH, "transfer",
                        "the destination has " + pulled.size() + " bytes after the third-party copy, the job says " + req.expectedSize());
            }
            if (req.checksums() && req.expectedChecksum() != null && !req.expectedChecksum().equalsIgnoreCase(pulled.checksum())) {
                throw ChecksumMismatch.jobAndDestination(req.algorithm(), req.expectedChecksum(), pulled.checksum());
            }
        } catch (MoverException e) {
            try {
                access.delete(req.destination(), req.credentials().destination(), "cleanup");
            } catch (MoverException ignored) {
                // the wrong file stays; the next attempt replaces it
            }
            throw e;
        }
        return new CopyResult(pulled.size(), pulled.checksum(), 1, (System.nanoTime() - t0) / 1_000_000, 0);
    }
}
