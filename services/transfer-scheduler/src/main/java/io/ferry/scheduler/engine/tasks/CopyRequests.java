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

    static CopyRequest of(ClaimedFile f, StorageBoundary.Authorized allowed, int streams, SchedulingInputs.Se destSe,
                          StorageCredentials credentials) {
        URI source = allowed.source().toUri();
        URI dest = allowed.destination().toUri();
        // A file an earlier attempt of ours may have written is ours to replace.
        boolean overwrite = f.overwrite() || f.destOurs();
        // pull mode: a destination SE that does third-party copy fetches the source itself, where it speaks the source's
        // protocol: WebDAV from WebDAV or from S3 (a pre-signed URL), XRootD from XRootD
        boolean thirdParty = destSe != null && destSe.thirdPartyCopy() && pulls(MoverChoice.family(source), MoverChoice.family(dest));
        return new CopyRequest(source, dest, f.filesize(), f.expectedChecksum(), f.verify(), overwrite, streams, allowed.destinationBase().toUri(),
                thirdParty, allowed.sourceBase().toUri(), credentials, f.checksumAlgorithm(), f.scitag(), f.archiveMetadata());
    }

    private static boolean pulls(String source, String destination) {
        return switch (destination) {
            case "http" -> source.equals("http") || source.equals("s3");
            case "root" -> source.equals("root");
            default -> false;
        };
    }
}
