package io.ferry.scheduler.submission;

import io.ferry.problem.Problem;

import java.util.List;

/**
 * FTS3's multihop jobs: the files are hops of one chain, each copying what the hop before it wrote, run one after
 * another. A hop has one source and one destination (FTS3 refuses multihop together with multiple replicas), and
 * its source is the previous hop's destination.
 */
public final class Hops {

    private Hops() {
    }

    /** Adds what breaks the chain to {@code errors}. */
    static void check(List<Submission.FileRequest> hops, List<Problem.FieldError> errors) {
        for (int i = 0; i < hops.size(); i++) {
            Submission.FileRequest hop = hops.get(i);
            if (hop.sources().size() != 1 || hop.destinations().size() != 1) {
                errors.add(new Problem.FieldError("files[" + i + "]",
                        "a multihop job's hop has one source and one destination (multiple replicas cannot be multihop)"));
            } else if (i > 0 && hops.get(i - 1).destinations().size() == 1
                    && !hops.get(i - 1).destinations().get(0).trim().equals(hop.sources().get(0).trim())) {
                errors.add(new Problem.FieldError("files[" + i + "].sources",
                        "a hop's source must be the previous hop's destination, " + hops.get(i - 1).destinations().get(0)));
            }
        }
    }
}
