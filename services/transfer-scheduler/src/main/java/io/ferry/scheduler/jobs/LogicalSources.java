package io.ferry.scheduler.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import io.ferry.problem.Problem;
import io.ferry.problem.ProblemException;
import io.ferry.scheduler.storage.EndpointMatcher;
import io.ferry.scheduler.storage.StorageEndpoint;
import io.ferry.scheduler.submission.FileTokens;
import io.ferry.scheduler.submission.Submission;
import io.ferry.storageurl.StorageUrl;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.WebApplicationException;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Sources given by name instead of URL — {@code handle:prefix/suffix}, {@code lfn:…}, {@code guid:…},
 * {@code did:scope:name} — are resolved at submission by handle-resolver into its replicas' transport URLs for the
 * destination's protocol, best first for the destination SE; they become the file's sources in that order (the next
 * is tried when one fails). The job's size and checksum, when missing, are taken from the catalogue. Without the
 * resolver such a job cannot be accepted: 503, nothing stored.
 */
@ApplicationScoped
public class LogicalSources {

    static final Set<String> SCHEMES = Set.of("handle", "lfn", "guid", "did");
    static final Set<String> UNUSABLE = Set.of("BAD", "LOST", "UNAVAILABLE", "DELETED");

    final ReplicaLookup resolver;

    @Inject
    public LogicalSources(ReplicaLookup resolver) {
        this.resolver = resolver;
    }

    public static boolean isLogical(String source) {
        int colon = source.indexOf(':');
        return colon > 0 && SCHEMES.contains(source.substring(0, colon).toLowerCase(Locale.ROOT)) && !source.startsWith(source.substring(0, colon) + "://");
    }

    /** The submission with every logical source replaced by replica URLs; unchanged when it has none. */
    @WithSpan
    public Uni<Submission> resolve(Submission s, List<StorageEndpoint> endpoints) {
        if (s.files().stream().noneMatch(f -> f.sources().stream().anyMatch(LogicalSources::isLogical))) {
            return Uni.createFrom().item(s);
        }
        List<Problem.FieldError> errors = new ArrayList<>();
        Uni<List<Submission.FileRequest>> chain = Uni.createFrom().item(new ArrayList<>());
        for (int i = 0; i < s.files().size(); i++) {
            int index = i;
            Submission.FileRequest f = s.files().get(i);
            chain = chain.chain(done -> resolveFile(f, index, endpoints, errors).map(resolved -> {
                done.add(resolved);
                return done;
            }));
        }
        return chain.map(files -> {
            if (!errors.isEmpty()) {
                throw new ProblemException(Problem.of(422, "UNRESOLVED_SOURCE",
                        errors.size() + " logical source(s) have no usable replica; nothing was stored").withErrors(errors));
            }
            return s.withFiles(files);
        });
    }

    private Uni<Submission.FileRequest> resolveFile(Submission.FileRequest f, int index, List<StorageEndpoint> endpoints,
                                                    List<Problem.FieldError> errors) {
        if (f.sources().stream().noneMatch(LogicalSources::isLogical)) {
            return Uni.createFrom().item(f);
        }
        Optional<StorageUrl> destination = StorageUrl.tryParse(f.destinations().get(0));
        Optional<StorageEndpoint> destSe = destination.flatMap(d -> EndpointMatcher.match(d, endpoints, se -> se.baseUrls, se -> se.name))
                .map(EndpointMatcher.Match::se);
        if (destSe.isEmpty()) {
            // the endpoint check that follows reports it
            return Uni.createFrom().item(f);
        }
        String protocol = destination.get().scheme();
        Uni<List<String>> sources = Uni.createFrom().item(new ArrayList<>());
        // the token given for a logical source goes with each of its replicas (parallel to the sources found)
        List<String> tokens = new ArrayList<>();
        Long[] size = {f.filesize()};
        String[] checksum = {f.checksum()};
        for (int j = 0; j < f.sources().size(); j++) {
            String source = f.sources().get(j);
            String at = "files[" + index + "].sources[" + j + "]";
            String token = f.tokens() == null ? null : f.tokens().source(j);
            if (!isLogical(source)) {
                sources = sources.map(list -> {
                    list.add(source);
                    tokens.add(token);
                    return list;
                });
                continue;
            }
            // with its kind, so that the resolver looks a handle: source up as a handle only, never as a logical
            // name someone else bound (and an lfn: only among LFNs)
            String kind = source.substring(0, source.indexOf(':')).toLowerCase(Locale.ROOT);
            String id = kind + source.substring(source.indexOf(':'));
            sources = sources.chain(list -> resolver.replicas(id, destSe.get().name, protocol, f.filesize())
                    .onFailure(TimeoutException.class).transform(e -> unavailable("did not answer within " + ReplicaLookup.TIMEOUT_MILLIS / 1000 + " s"))
                    .onFailure(WebApplicationException.class).recoverWithItem(e -> {
                        int status = ((WebApplicationException) e).getResponse().getStatus();
                        if (status == 404 || status == 400 || status == 410) {
                            errors.add(new Problem.FieldError(at, source + " is unknown to handle-resolver (HTTP " + status + ")"));
                            return null;
                        }
                        throw unavailable("answered HTTP " + status);
                    })
                    .onFailure(e -> !(e instanceof ProblemException)).transform(e -> unavailable(e.getClass().getSimpleName()))
                    .map(answer -> {
                        if (answer == null) {
                            return list;
                        }
                        int before = list.size();
                        int refused = 0;
                        for (JsonNode r : answer.path("replicas")) {
                            String turl = r.path("turl").asText("");
                            if (turl.isBlank() || UNUSABLE.contains(r.path("state").asText("").toUpperCase(Locale.ROOT))) {
                                continue;
                            }
                            // a replica's URL is a storage URL like any other: one that could name another path on
                            // its server is not used (the SE and rights checks that follow see only canonical forms)
                            Optional<StorageUrl> canonical = StorageUrl.tryParse(turl);
                            if (canonical.isEmpty()) {
                                refused++;
                                continue;
                            }
                            list.add(canonical.get().toString());
                            tokens.add(token);
                            if (size[0] == null && r.hasNonNull("size")) {
                                size[0] = r.get("size").asLong();
                            }
                            if (checksum[0] == null && r.hasNonNull("adler32") && r.get("adler32").asText().matches("[0-9a-fA-F]{1,8}")) {
                                checksum[0] = "ADLER32:" + String.format("%8s", r.get("adler32").asText().toLowerCase(Locale.ROOT)).replace(' ', '0');
                            }
                        }
                        if (list.size() == before) {
                            errors.add(new Problem.FieldError(at, source + " has no usable replica for protocol " + protocol
                                    + (refused > 0 ? " (" + refused + " replica URL(s) with no canonical storage form were refused)" : "")));
                        }
                        return list;
                    }));
        }
        return sources.map(list -> {
            // a replica found twice is tried once, with the token of the source that named it first
            List<String> distinct = new ArrayList<>();
            List<String> distinctTokens = new ArrayList<>();
            for (int k = 0; k < list.size(); k++) {
                if (!distinct.contains(list.get(k))) {
                    distinct.add(list.get(k));
                    distinctTokens.add(tokens.get(k));
                }
            }
            FileTokens resolvedTokens = f.tokens() == null ? null : new FileTokens(distinctTokens, f.tokens().destinations());
            return new Submission.FileRequest(distinct, f.destinations(), size[0], checksum[0], f.metadata(), f.activity(), resolvedTokens,
                    f.scitag(), f.tape());
        });
    }

    private static ProblemException unavailable(String why) {
        return new ProblemException(Problem.of(503, "RESOLVER_UNAVAILABLE",
                "a source is a logical name and handle-resolver " + why + "; nothing was stored, submit again later"));
    }
}
