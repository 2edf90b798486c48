package io.ferry.scheduler.engine;

import io.ferry.engineloop.EngineLoop;
import io.ferry.movers.DirectoryListing;
import io.ferry.movers.MoverException;
import io.ferry.movers.StorageCredential;
import io.ferry.scheduler.engine.tasks.MoverChoice;
import io.ferry.scheduler.loops.WokenBy;
import io.ferry.scheduler.queue.EngineIdentity;
import io.ferry.scheduler.queue.FileState;
import io.ferry.scheduler.replicas.ClaimPermit;
import io.ferry.scheduler.storage.StorageBoundary;
import io.ferry.scheduler.storage.s3.S3Accounts;
import io.ferry.scheduler.submission.PathGlobs;
import io.ferry.scheduler.transitions.DirectoryExpansions;
import io.ferry.scheduler.transitions.EngineWakeups;
import io.ferry.scheduler.transitions.JobInserts;
import io.ferry.storageurl.InvalidStorageUrl;
import io.ferry.storageurl.StorageUrl;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Turns directory jobs into files: claims a job's directory request (one replica at a time, for a lease), lists the
 * source tree, keeps the files its filters keep and stores them, each at the same relative path below the
 * destination, after which the job runs as any other. A tree over the job's max_files, an empty one, a name no
 * storage URL can carry, or a listing that fails for good ends the job FAILED with the reason.
 */
@ApplicationScoped
public class DirectoryLoop extends EngineLoop implements WokenBy {

    private static final Logger LOG = Logger.getLogger(DirectoryLoop.class);
    /** Long enough for a tree of the largest job on a slow SE; a replica that died while listing holds it no longer. */
    static final Duration LISTING_LEASE = Duration.ofMinutes(5);
    /** Listings of one job begun: a failure that may pass (a timeout, a 5xx) is tried again until then. */
    static final int MAX_ATTEMPTS = 3;
    static final Duration RETRY_DELAY = Duration.ofSeconds(30);
    private static final int REQUESTS_PER_PASS = 20;

    private final DirectoryExpansions expansions;
    private final MoverChoice movers;
    private final StorageBoundary boundary;
    private final EngineIdentity identity;
    private final ClaimPermit permit;
    private final EngineWakeups wakeups;
    private final S3Accounts s3;

    @Inject
    DirectoryLoop(DirectoryExpansions expansions, MoverChoice movers, StorageBoundary boundary, EngineIdentity identity, ClaimPermit permit,
                  EngineWakeups wakeups, S3Accounts s3) {
        this.s3 = s3;
        this.expansions = expansions;
        this.movers = movers;
        this.boundary = boundary;
        this.identity = identity;
        this.permit = permit;
        this.wakeups = wakeups;
    }

    @Override
    public String name() {
        return "directory-listing";
    }

    @Override
    public Set<EngineWakeups.Event> wokenBy() {
        return Set.of(EngineWakeups.Event.JOB_SUBMITTED);
    }

    @Override
    protected Duration period() {
        return Duration.ofSeconds(2);
    }

    @Override
    protected void pass() {
        for (int i = 0; i < REQUESTS_PER_PASS && permit.mayClaim(); i++) {
            Optional<DirectoryExpansions.Request> r = expansions.claim(identity.id(), LISTING_LEASE);
            if (r.isEmpty()) {
                return;
            }
            expand(r.get());
        }
    }

    private void expand(DirectoryExpansions.Request r) {
        String owner = identity.id();
        if (r.attempts() > MAX_ATTEMPTS) {
            expansions.fail(r, owner, "listing " + r.sourceUrl() + " was begun " + MAX_ATTEMPTS + " times and never ended");
            return;
        }
        long started = System.nanoTime();
        try {
            StorageUrl source = StorageUrl.parse(r.sourceUrl());
            StorageUrl destination = StorageUrl.parse(r.destUrl());
            StorageUrl base = boundary.readableBase(r.vo(), source, r.sourceSe(), "list");
            PathGlobs globs = new PathGlobs(r.include(), r.exclude());
            // the scheduler's own identity, or on S3 the account configured for the SE (and VO), as its copies sign
            StorageCredential credential = S3Accounts.speaksS3(source.toUri()) ? s3.forCopy(r.sourceSe(), r.vo()).orElse(null) : null;
            DirectoryListing.Listing listing = movers.listing(source.toUri()).list(source.toUri(), base.toUri(), credential, globs::keeps, r.maxFiles());
            long listedMs = (System.nanoTime() - started) / 1_000_000;
            String filtered = r.include().isEmpty() && r.exclude().isEmpty() ? "" : " that the include/exclude filters keep";
            if (listing.overLimit()) {
                expansions.fail(r, owner, source + " has " + listing.matching() + " files" + filtered + ", more than max_files " + r.maxFiles());
                return;
            }
            if (listing.files().isEmpty()) {
                expansions.fail(r, owner, source + " holds no file" + filtered);
                return;
            }
            List<JobInserts.NewFile> files = files(r, source, destination, listing.files());
            if (files != null && expansions.expand(r, owner, files)) {
                wakeups.jobSubmitted();
                LOG.infof("directory job %s: %d file(s) of %s listed in %d ms, stored in %d ms", r.jobId(), files.size(), source, listedMs,
                        (System.nanoTime() - started) / 1_000_000 - listedMs);
            }
        } catch (MoverException e) {
            if (e.retryable() && r.attempts() < MAX_ATTEMPTS) {
                LOG.infof("directory job %s: listing %s failed (%s), trying again in %s", r.jobId(), r.sourceUrl(), e.getMessage(), RETRY_DELAY);
                expansions.retryLater(r, owner, RETRY_DELAY);
            } else {
                expansions.fail(r, owner, "listing " + r.sourceUrl() + " failed: " + e.code() + ": " + e.getMessage());
            }
        } catch (InvalidStorageUrl e) {
            expansions.fail(r, owner, "the directory job's URLs are no storage URLs: " + e.getMessage());
        }
    }

    /**
     * The job's files in path order, each with the source's and destination's URL built from the relative path one
     * decoded segment at a time (each encoded the canonical way, none a dot-segment); null once the job was failed for
     * a name that no storage URL can carry.
     */
    private List<JobInserts.NewFile> files(DirectoryExpansions.Request r, StorageUrl source, StorageUrl destination,
                                           List<DirectoryListing.ListedFile> listed) {
        List<DirectoryListing.ListedFile> sorted = new ArrayList<>(listed);
        sorted.sort(Comparator.comparing(DirectoryListing.ListedFile::path));
        List<JobInserts.NewFile> files = new ArrayList<>(sorted.size());
        for (DirectoryListing.ListedFile f : sorted) {
            StorageUrl from;
            StorageUrl to;
            try {
                from = source.resolve(f.path());
                to = destination.resolve(f.path());
            } catch (InvalidStorageUrl e) {
                expansions.fail(r, identity.id(), "'" + f.path() + "' below " + source + " cannot be named by a storage URL (" + e.reason()
                        + "): " + e.getMessage() + "; leave it out with exclude");
                return null;
            }
            // no size from the listing: a file that changes between listing and copy is copied as it is then
            files.add(new JobInserts.NewFile(files.size(), r.activity(), from.toString(), to.toString(), r.sourceSe(), r.destSe(), null, null,
                    null, r.fileMetadata(), FileState.SUBMITTED, r.scitag(), null));
        }
        return files;
    }
}
