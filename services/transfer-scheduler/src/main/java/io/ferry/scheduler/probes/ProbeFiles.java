package io.ferry.scheduler.probes;

import io.ferry.movers.MoverException;
import io.ferry.movers.WebDavSchemes;
import io.ferry.scheduler.storage.SchedulingInputs;
import io.ferry.scheduler.storage.StorageAccess;
import io.ferry.storageurl.StorageUrl;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Where a probe run's two files go: below a base URL of each SE that one mover speaks to both (WebDAV in any of its
 * schemes, else file://), in {@code <directory>/<probe id>/<run>}; the run's VO must be allowed to read the source
 * and write the destination there, and each SE must accept Ferry's own identity, with which the source is created
 * and both files removed.
 */
public final class ProbeFiles {

    /** Base URL schemes in the order a probe prefers them. */
    static final List<String> PREFERRED = List.of("https", "davs", "http", "dav", "file");

    private ProbeFiles() {
    }

    public static ProbeRows.ProbeFiles place(Probe p, SchedulingInputs.Se source, SchedulingInputs.Se dest, String directory, UUID run)
            throws MoverException {
        if (source == null || dest == null) {
            throw refusal("storage endpoint " + (source == null ? p.sourceSe() : p.destSe()) + " is no longer registered");
        }
        for (SchedulingInputs.Se se : List.of(source, dest)) {
            if (!se.allowServiceIdentity()) {
                throw refusal("storage endpoint " + se.name() + " accepts only the user's own credential (allowServiceIdentity is false), "
                        + "and a probe creates and removes its files with Ferry's own");
            }
        }
        StorageUrl[] bases = sharedFamily(source.baseUrls(), dest.baseUrls());
        if (bases == null) {
            throw new MoverException(MoverException.Code.UNSUPPORTED_URL, "probe", "no mover copies between " + source.name() + " "
                    + source.baseUrls().keySet() + " and " + dest.name() + " " + dest.baseUrls().keySet());
        }
        String relative = directory.replaceAll("^/+|/+$", "") + "/" + p.probeId() + "/" + run;
        StorageUrl from = bases[0].resolve(relative);
        StorageUrl to = bases[1].resolve(relative);
        if (!source.access().allows(p.vo(), StorageAccess.Operation.READ, from, bases[0])) {
            throw refusal("VO " + p.vo() + " may not read " + from + " at " + source.name());
        }
        if (!dest.access().allows(p.vo(), StorageAccess.Operation.WRITE, to, bases[1])) {
            throw refusal("VO " + p.vo() + " may not write " + to + " at " + dest.name());
        }
        return new ProbeRows.ProbeFiles(from.toString(), bases[0].toString(), to.toString(), bases[1].toString());
    }

    /** A base URL of each SE, both spoken by the same mover; null if there is none. */
    private static StorageUrl[] sharedFamily(Map<String, String> source, Map<String, String> dest) {
        for (String family : List.of("http", "file")) {
            String s = best(source, family);
            String d = best(dest, family);
            if (s != null && d != null) {
                return new StorageUrl[]{StorageUrl.parse(s), StorageUrl.parse(d)};
            }
        }
        return null;
    }

    private static String best(Map<String, String> bases, String family) {
        for (String scheme : PREFERRED) {
            for (String url : bases.values()) {
                URI u = URI.create(url);
                boolean http = WebDavSchemes.transport(u) != null;
                if (scheme.equalsIgnoreCase(u.getScheme()) && (family.equals("http") ? http : !http)) {
                    return url;
                }
            }
        }
        return null;
    }

    private static MoverException refusal(String why) {
        return new MoverException(MoverException.Code.PERMISSION_DENIED, "probe", why);
    }
}
