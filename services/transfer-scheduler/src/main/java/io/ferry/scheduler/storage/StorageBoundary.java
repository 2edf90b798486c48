package io.ferry.scheduler.storage;

import io.ferry.movers.MoverException;
import io.ferry.problem.Problem;
import io.ferry.problem.ProblemException;
import io.ferry.scheduler.queue.ClaimedFile;
import io.ferry.scheduler.submission.Submission;
import io.ferry.storageurl.InvalidStorageUrl;
import io.ferry.storageurl.StorageUrl;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where a job may touch storage, decided on canonical storage URLs ({@link StorageUrl}): every URL lies under a
 * registered SE, and the job's VO may read each source and write each destination there. Checked at submission
 * (nothing is stored otherwise) and again just before the engine touches storage, since rights may have been
 * taken away (or an SE's base moved) since: a file that is no longer allowed fails for good, before any request.
 */
@ApplicationScoped
public class StorageBoundary {

    final SiteDirectory sites;

    @Inject
    public StorageBoundary(SiteDirectory sites) {
        this.sites = sites;
    }

    /** A submitted file's URLs in canonical form and the SEs they lie under. */
    public record CheckedFile(List<StorageUrl> sources, List<String> sourceSes, StorageUrl destination, String destSe) {
    }

    /** What the engine may touch for a claimed file: its URLs in canonical form and the SEs' base URLs they lie below. */
    public record Authorized(StorageUrl source, StorageUrl sourceBase, StorageUrl destination, StorageUrl destinationBase) {
    }

    /**
     * Every URL of the submission parsed, matched to its SE and checked against {@code vo}'s rights. A URL with no
     * canonical form is 422 INVALID_STORAGE_URL, one under no SE 422 UNREGISTERED_ENDPOINT, one the VO may not
     * use 403 STORAGE_ACCESS_DENIED; each offending URL is named ({@code files[i].sources[j]},
     * {@code files[i].destinations[j]}).
     */
    public List<CheckedFile> checkSubmission(Submission s, List<StorageEndpoint> endpoints, String vo) {
        List<Problem.FieldError> invalid = new ArrayList<>();
        List<Problem.FieldError> outside = new ArrayList<>();
        List<Problem.FieldError> denied = new ArrayList<>();
        List<CheckedFile> out = new ArrayList<>(s.files().size());
        Rights rights = new Rights(EndpointMatcher.index(endpoints, se -> se.baseUrls, se -> se.name));
        for (int i = 0; i < s.files().size(); i++) {
            Submission.FileRequest f = s.files().get(i);
            List<StorageUrl> sources = new ArrayList<>();
            List<String> sourceSes = new ArrayList<>();
            for (int j = 0; j < f.sources().size(); j++) {
                check(f.sources().get(j), "files[" + i + "].sources[" + j + "]", StorageAccess.Operation.READ, rights, vo, invalid, outside, denied)
                        .ifPresent(m -> {
                            sources.add(m.url());
                            sourceSes.add(m.se().name);
                        });
            }
            List<Matched> destinations = new ArrayList<>();
            for (int j = 0; j < f.destinations().size(); j++) {
                check(f.destinations().get(j), "files[" + i + "].destinations[" + j + "]", StorageAccess.Operation.WRITE, rights, vo,
                        invalid, outside, denied).ifPresent(destinations::add);
            }
            if (sources.size() == f.sources().size() && destinations.size() == f.destinations().size()) {
                out.add(new CheckedFile(sources, sourceSes, destinations.get(0).url(), destinations.get(0).se().name));
            }
        }
        if (!invalid.isEmpty()) {
            invalid.addAll(outside);
            throw new ProblemException(Problem.of(422, "INVALID_STORAGE_URL", invalid.size()
                    + " URL(s) have no canonical storage form or lie outside every registered storage endpoint; nothing was stored").withErrors(invalid));
        }
        if (!outside.isEmpty()) {
            throw new ProblemException(Problem.of(422, "UNREGISTERED_ENDPOINT",
                    outside.size() + " URL(s) are outside every registered storage endpoint; nothing was stored").withErrors(outside));
        }
        if (!denied.isEmpty()) {
            throw new ProblemException(Problem.of(403, "STORAGE_ACCESS_DENIED", "VO '" + vo + "' has no right to "
                    + (denied.size() == 1 ? "this URL" : "these " + denied.size() + " URLs") + " (see errors); nothing was stored").withErrors(denied));
        }
        return out;
    }

    private record Matched(StorageUrl url, StorageEndpoint se) {
    }

    /** The registered SEs and their rights at each base URL, prepared once per submission for all of its URLs. */
    private record Rights(EndpointMatcher.Index<StorageEndpoint> endpoints, Map<StorageUrl, StorageAccess.AtBase> atBase) {

        Rights(EndpointMatcher.Index<StorageEndpoint> endpoints) {
            // the index answers the same base instance for every URL below it
            this(endpoints, new IdentityHashMap<>());
        }

        StorageAccess.AtBase at(StorageEndpoint se, StorageUrl base) {
            return atBase.computeIfAbsent(base, b -> (se.access == null ? StorageAccess.CLOSED : se.access).at(b));
        }
    }

    private static Optional<Matched> check(String raw, String field, StorageAccess.Operation op, Rights rights, String vo,
                                           List<Problem.FieldError> invalid, List<Problem.FieldError> outside, List<Problem.FieldError> denied) {
        StorageUrl url;
        try {
            url = StorageUrl.parse(raw);
        } catch (InvalidStorageUrl e) {
            invalid.add(new Problem.FieldError(field, "not a storage URL (" + e.reason() + "): " + e.getMessage()));
            return Optional.empty();
        }
        Optional<EndpointMatcher.Match<StorageEndpoint>> match = rights.endpoints().match(url);
        if (match.isEmpty()) {
            outside.add(new Problem.FieldError(field, url + " is under no registered storage endpoint"));
            return Optional.empty();
        }
        StorageEndpoint se = match.get().se();
        if (!rights.at(se, match.get().base()).allows(vo, op, url)) {
            denied.add(new Problem.FieldError(field, "VO '" + vo + "' may not " + op.verb() + " " + url + " on storage endpoint " + se.name));
            return Optional.empty();
        }
        return Optional.of(new Matched(url, se));
    }

    /**
     * The claimed file's URLs in canonical form, once each still belongs to the SE the file was queued for (the
     * longest match over the SEs registered now: an SE registered since at a nested base takes its URLs over) and
     * its VO may still read the source and write the destination there. {@code phase}: where the engine is
     * (prepare or transfer).
     */
    public Authorized authorize(ClaimedFile f, String phase) throws MoverException {
        SchedulingInputs.Se sourceSe = sites.se(f.sourceSe());
        SchedulingInputs.Se destSe = sites.se(f.destSe());
        if (sourceSe == null || destSe == null) {
            throw new MoverException(MoverException.Code.UNSUPPORTED_URL, phase,
                    "a storage endpoint of this file is no longer registered; Ferry touches registered storage only");
        }
        StorageUrl source = canonical(f.sourceUrl(), phase);
        StorageUrl destination = canonical(f.destUrl(), phase);
        stillBelongs(source, sourceSe, phase);
        stillBelongs(destination, destSe, phase);
        StorageUrl sourceBase = allowed(f.vo(), StorageAccess.Operation.READ, source, sourceSe, phase);
        StorageUrl destinationBase = allowed(f.vo(), StorageAccess.Operation.WRITE, destination, destSe, phase);
        return new Authorized(source, sourceBase, destination, destinationBase);
    }

    /**
     * A directory job's source, checked as {@link #authorize} checks a file's before it is listed: still under the SE
     * it was submitted under and still readable by {@code vo}; answers that SE's base URL.
     */
    public StorageUrl readableBase(String vo, StorageUrl source, String seName, String phase) throws MoverException {
        SchedulingInputs.Se se = sites.se(seName);
        if (se == null) {
            throw new MoverException(MoverException.Code.UNSUPPORTED_URL, phase, "storage endpoint " + seName + " is no longer registered");
        }
        stillBelongs(source, se, phase);
        return allowed(vo, StorageAccess.Operation.READ, source, se, phase);
    }

    private void stillBelongs(StorageUrl url, SchedulingInputs.Se queuedUnder, String phase) throws MoverException {
        Optional<String> now = sites.seOf(url);
        if (now.isPresent() && !now.get().equals(queuedUnder.name())) {
            throw new MoverException(MoverException.Code.PERMISSION_DENIED, phase, url + " now belongs to storage endpoint " + now.get()
                    + ", not to " + queuedUnder.name() + " it was submitted under; its rights there were never checked");
        }
    }

    private static StorageUrl canonical(String url, String phase) throws MoverException {
        try {
            return StorageUrl.parse(url);
        } catch (InvalidStorageUrl e) {
            throw new MoverException(MoverException.Code.UNSUPPORTED_URL, phase, url + " has no canonical storage form (" + e.reason() + ")");
        }
    }

    private static StorageUrl allowed(String vo, StorageAccess.Operation op, StorageUrl url, SchedulingInputs.Se se, String phase)
            throws MoverException {
        Optional<StorageUrl> base = EndpointMatcher.baseOf(url, se.baseUrls());
        if (base.isEmpty()) {
            throw new MoverException(MoverException.Code.PERMISSION_DENIED, phase, url + " is no longer under storage endpoint " + se.name());
        }
        StorageAccess access = se.access() == null ? StorageAccess.CLOSED : se.access();
        if (!access.allows(vo, op, url, base.get())) {
            throw new MoverException(MoverException.Code.PERMISSION_DENIED, phase, "VO '" + vo + "' may no longer " + op.verb() + " " + url
                    + " on storage endpoint " + se.name() + " (its rights changed since the job was submitted)");
        }
        return base.get();
    }
}
