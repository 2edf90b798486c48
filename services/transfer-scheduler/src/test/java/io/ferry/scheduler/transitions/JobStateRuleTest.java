package io.ferry.scheduler.transitions;

import io.ferry.scheduler.queue.FileState;
import io.ferry.scheduler.queue.JobState;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static io.ferry.scheduler.queue.FileState.ACTIVE;
import static io.ferry.scheduler.queue.FileState.CANCELED;
import static io.ferry.scheduler.queue.FileState.FAILED;
import static io.ferry.scheduler.queue.FileState.FINISHED;
import static io.ferry.scheduler.queue.FileState.NOT_USED;
import static io.ferry.scheduler.queue.FileState.READY;
import static io.ferry.scheduler.queue.FileState.STAGING;
import static io.ferry.scheduler.queue.FileState.SUBMITTED;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** FTS3's job-state rule, case by case as a user watching a job would see it. */
class JobStateRuleTest {

    private static JobState of(FileState... files) {
        return JobStateRule.of(Arrays.asList(files));
    }

    @Test
    void aJobWhoseFilesAllFinishedIsFinished() {
        assertEquals(JobState.FINISHED, of(FINISHED));
        assertEquals(JobState.FINISHED, of(FINISHED, FINISHED, FINISHED));
    }

    @Test
    void someFailedOrCanceledBesideFinishedIsFinishedDirty() {
        assertEquals(JobState.FINISHEDDIRTY, of(FINISHED, FAILED));
        assertEquals(JobState.FINISHEDDIRTY, of(FINISHED, CANCELED));
        assertEquals(JobState.FINISHEDDIRTY, of(FAILED, FINISHED, CANCELED, FINISHED));
    }

    @Test
    void noneFinishedIsFailedUnlessOnlyCancellations() {
        assertEquals(JobState.FAILED, of(FAILED));
        assertEquals(JobState.FAILED, of(FAILED, FAILED));
        assertEquals(JobState.FAILED, of(FAILED, CANCELED), "a failure beside cancellations is a failure");
        assertEquals(JobState.CANCELED, of(CANCELED));
        assertEquals(JobState.CANCELED, of(CANCELED, CANCELED));
    }

    @Test
    void alternativesNotUsedDoNotCount() {
        assertEquals(JobState.FINISHED, of(FINISHED, NOT_USED, NOT_USED));
        assertEquals(JobState.FAILED, of(FAILED, NOT_USED));
        assertEquals(JobState.CANCELED, of(NOT_USED, CANCELED));
        assertEquals(JobState.FINISHED, of(NOT_USED), "nothing counted: nothing went wrong");
        assertEquals(JobState.FINISHED, of());
    }

    @Test
    void whileFilesAreOpenTheJobIsNotOver() {
        assertEquals(JobState.SUBMITTED, of(SUBMITTED));
        assertEquals(JobState.SUBMITTED, of(SUBMITTED, READY), "prepared but not started is still submitted");
        assertEquals(JobState.STAGING, of(SUBMITTED, STAGING));
        assertEquals(JobState.ACTIVE, of(ACTIVE));
        assertEquals(JobState.ACTIVE, of(STAGING, ACTIVE), "one moving file makes the job active, staging or not");
        assertEquals(JobState.ACTIVE, of(SUBMITTED, FINISHED), "started: a file is done");
        assertEquals(JobState.ACTIVE, of(READY, FAILED));
        assertEquals(JobState.STAGING, of(STAGING, FINISHED), "staging wins over done while nothing moves");
        assertEquals(JobState.SUBMITTED, of(SUBMITTED, NOT_USED));
    }

    @Test
    void aPartialCancelLeavesTheRestRunning() {
        assertEquals(JobState.ACTIVE, of(CANCELED, ACTIVE));
        assertEquals(JobState.ACTIVE, of(CANCELED, SUBMITTED), "a cancelled file is done, so the job has started");
        assertEquals(JobState.FINISHEDDIRTY, of(CANCELED, FINISHED, FINISHED), "the rest finished after the cancel");
    }

    /** The engine asks the database only which states are present while files are open: counts must not matter then. */
    @Test
    void whileOpenOnlyWhichStatesArePresentMatters() {
        List<FileState> all = Arrays.asList(FileState.values());
        for (int mask = 1; mask < 1 << all.size(); mask++) {
            Map<FileState, Long> presence = new EnumMap<>(FileState.class);
            Map<FileState, Long> many = new EnumMap<>(FileState.class);
            List<FileState> files = new ArrayList<>();
            for (int i = 0; i < all.size(); i++) {
                if ((mask & 1 << i) != 0) {
                    presence.put(all.get(i), 1L);
                    many.put(all.get(i), 7L + i);
                    for (int n = 0; n < 2 + i; n++) {
                        files.add(all.get(i));
                    }
                }
            }
            boolean open = FileState.OPEN.stream().anyMatch(presence::containsKey);
            if (!open) {
                continue;
            }
            // an ARCHIVING file is being worked on, as an ACTIVE one
            JobState byPresence = JobStateRule.whileOpen(presence.containsKey(ACTIVE) || presence.containsKey(FileState.ARCHIVING), presence.containsKey(STAGING),
                    FileState.DONE.stream().anyMatch(presence::containsKey));
            assertEquals(byPresence, JobStateRule.of(presence), presence.toString());
            assertEquals(byPresence, JobStateRule.of(many), many.toString());
            assertEquals(byPresence, JobStateRule.of(files), files.toString());
            assertEquals(false, byPresence.terminal(), "a job with open files is never over: " + presence);
        }
    }

    @Test
    void onceClosedTheStateIsFinal() {
        for (JobState s : List.of(JobStateRule.whenClosed(1, 0, 0), JobStateRule.whenClosed(1, 1, 0), JobStateRule.whenClosed(0, 1, 0),
                JobStateRule.whenClosed(0, 0, 1))) {
            assertEquals(true, s.terminal(), s.name());
        }
    }

    private static JobState chain(FileState... hops) {
        Map<FileState, Long> counts = new EnumMap<>(FileState.class);
        for (FileState h : hops) {
            counts.merge(h, 1L, Long::sum);
        }
        return JobStateRule.of(counts, true);
    }

    @Test
    void aChainRunsWhileItsNextHopWaits() {
        assertEquals(JobState.SUBMITTED, chain(SUBMITTED, NOT_USED, NOT_USED));
        assertEquals(JobState.ACTIVE, chain(FINISHED, SUBMITTED, NOT_USED));
        assertEquals(JobState.ACTIVE, chain(FINISHED, FINISHED, ACTIVE));
    }

    @Test
    void aChainIsFinishedOnlyWhenEveryHopIs() {
        assertEquals(JobState.FINISHED, chain(FINISHED, FINISHED, FINISHED));
        // a broken chain never reached its destination: not FINISHEDDIRTY, whatever hops finished before the break
        assertEquals(JobState.FAILED, chain(FAILED, NOT_USED, NOT_USED));
        assertEquals(JobState.FAILED, chain(FINISHED, FAILED, NOT_USED));
        assertEquals(JobState.CANCELED, chain(FINISHED, CANCELED, NOT_USED));
        // the same files in an ordinary job
        assertEquals(JobState.FINISHEDDIRTY, of(FINISHED, FAILED, NOT_USED));
    }
}
