package io.ferry.scheduler.jobs;

import io.ferry.scheduler.storage.StorageBoundary;
import io.ferry.scheduler.submission.DirectoryRequest;
import io.ferry.scheduler.submission.Submission;
import io.ferry.scheduler.transitions.DirectoryExpansions;

import java.util.Optional;
import java.util.UUID;

/** A submitted directory entry as the engine lists it: its checked, canonical URLs and SEs beside its filters. */
final class DirectoryJobs {

    private DirectoryJobs() {
    }

    /** The directory request of the job's entry {@code f}, empty when it is a file. */
    static Optional<DirectoryExpansions.Request> request(UUID jobId, String vo, Submission.FileRequest f, StorageBoundary.CheckedFile checked) {
        DirectoryRequest d = f.directory();
        if (d == null) {
            return Optional.empty();
        }
        return Optional.of(new DirectoryExpansions.Request(jobId, vo, checked.sources().get(0).toString(), checked.destination().toString(),
                checked.sourceSes().get(0), checked.destSe(), d.include(), d.exclude(), d.maxFiles(), f.activity(), f.metadata(), f.scitag(), 0));
    }
}
