package io.ferry.scheduler.service;

import io.ferry.scheduler.mover.CopyRequest;
import io.ferry.scheduler.repository.ClaimedFile;
import io.ferry.scheduler.repository.SchedulingInputs;

import java.net.URI;

/** The mover's view of a claimed file. */
final class CopyRequests {

    private CopyRequests() {
    }

    static CopyRequest of(ClaimedFile f, int streams, SchedulingInputs.Se destSe) {
        URI dest = URI.create(f.destUrl());
        URI base = null;
        if (destSe != null) {
            for (String b : destSe.baseUrls().values()) {
                String trimmed = b.replaceAll("/+$", "");
                if (f.destUrl().startsWith(trimmed + "/")) {
                    base = URI.create(trimmed);
                }
            }
        }
        // A file an earlier attempt of ours may have written is ours to replace.
        boolean overwrite = f.overwrite() || f.destOurs();
        URI source = URI.create(f.sourceUrl());
        // pull mode: a destination SE that does third-party copy fetches an http(s) source itself
        boolean thirdParty = destSe != null && destSe.thirdPartyCopy() && isHttp(source) && isHttp(dest);
        return new CopyRequest(source, dest, f.filesize(), f.adler32(), f.verify(), overwrite, streams, base, thirdParty);
    }

    private static boolean isHttp(URI u) {
        return "http".equalsIgnoreCase(u.getScheme()) || "https".equalsIgnoreCase(u.getScheme());
    }
}
