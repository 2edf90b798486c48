package io.ferry.scheduler.engine.tasks;

import io.ferry.movers.CopyRequest;
import io.ferry.movers.StorageCredentials;
import io.ferry.scheduler.queue.ClaimedFile;
import io.ferry.scheduler.storage.SchedulingInputs;
import io.ferry.scheduler.storage.StorageBoundary;

import java.net.URI;

/**
 * The mover's view of a claimed file: only the canonical URLs the storage boundary allowed, their SEs' bases, and
 * what it presents to each SE ({@link FileCredentials}).
 */
final class CopyRequests {

    private CopyRequests() {
    }

    static CopyRequest of(ClaimedFile f, StorageBoundary.Authorized allowed, int streams, SchedulingInputs.Se sourceSe, SchedulingInputs.Se destSe,
                          StorageCredentials credentials) {
        URI source = allowed.source().toUri();
        URI dest = allowed.destination().toUri();
        // A file an earlier attempt of ours may have written is ours to replace.
        boolean overwrite = f.overwrite() || f.destOurs();
        return new CopyRequest(source, dest, f.filesize(), f.expectedChecksum(), f.verify(), overwrite, streams, allowed.destinationBase().toUri(),
                thirdParty(sourceSe, destSe, source, dest), allowed.sourceBase().toUri(), credentials, f.checksumAlgorithm(), f.scitag(),
                f.archiveMetadata());
    }

    /**
     * Whether an SE copies the file itself. Pull mode: a destination SE that does third-party copy fetches the source,
     * where it speaks the source's protocol: WebDAV from WebDAV or from S3 (a pre-signed GET), XRootD from XRootD. Push
     * mode, for S3, which copies nothing itself: a WebDAV source SE that does third-party copy sends the file to a
     * pre-signed PUT.
     */
    static boolean thirdParty(SchedulingInputs.Se sourceSe, SchedulingInputs.Se destSe, URI source, URI dest) {
        String from = MoverChoice.family(source);
        String to = MoverChoice.family(dest);
        if (destSe != null && destSe.thirdPartyCopy() && pulls(from, to)) {
            return true;
        }
        return sourceSe != null && sourceSe.thirdPartyCopy() && from.equals("http") && to.equals("s3");
    }

    private static boolean pulls(String source, String destination) {
        return switch (destination) {
            case "http" -> source.equals("http") || source.equals("s3");
            case "root" -> source.equals("root");
            default -> false;
        };
    }
}
