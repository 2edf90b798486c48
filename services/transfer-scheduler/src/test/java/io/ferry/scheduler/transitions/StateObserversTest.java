package io.ferry.scheduler.transitions;

import io.ferry.scheduler.queue.FileState;
import io.ferry.scheduler.queue.JobState;
import io.ferry.scheduler.transitions.events.StateChanged;
import io.ferry.scheduler.transitions.events.StateEvents;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** What the observers of {@link StateChanged} make of each kind of change: wake-ups and counters, no Quarkus. */
class StateObserversTest {

    private static final UUID JOB = UUID.randomUUID();
    private static final StateChanged.Link LINK = new StateChanged.Link("SE-A", "SE-B");

    private static StateChanged change(FileState from, FileState to, StateChanged.Attempt attempt) {
        return StateChanged.files(JOB, List.of(1L, 2L), from, to, JobState.ACTIVE, "why", LINK, "atlas", attempt);
    }

    @Test
    void changesThatMayEndAJobWakeTheSettlerAndArchivingTheArchivePoll() {
        EngineWakeups wakeups = new EngineWakeups(new StateEvents());
        AtomicInteger changed = new AtomicInteger();
        AtomicInteger archiving = new AtomicInteger();
        wakeups.on(EngineWakeups.Event.FILE_CHANGED, changed::incrementAndGet);
        wakeups.on(EngineWakeups.Event.FILE_ARCHIVING, archiving::incrementAndGet);
        wakeups.changed(change(FileState.SUBMITTED, FileState.READY, null));
        wakeups.changed(change(FileState.READY, FileState.ACTIVE, null));
        wakeups.changed(StateChanged.job(JOB, JobState.FINISHED, "job FINISHED"));
        wakeups.changed(change(FileState.CANCELED, FileState.CANCELED, new StateChanged.Attempt(FileState.CANCELED, "CANCELED", 0, null)));
        assertEquals(0, changed.get(), "claims, prepares, the job alone and a stopped copy wake nothing");
        wakeups.changed(change(FileState.ACTIVE, FileState.FINISHED, new StateChanged.Attempt(FileState.FINISHED, null, 10, null)));
        wakeups.changed(change(FileState.STAGING, FileState.READY, null));
        wakeups.changed(change(FileState.SUBMITTED, FileState.SUBMITTED, new StateChanged.Attempt(FileState.FAILED, "TIMEOUT", 0, null)));
        assertEquals(3, changed.get());
        assertEquals(0, archiving.get());
        wakeups.changed(change(FileState.ACTIVE, FileState.ARCHIVING, new StateChanged.Attempt(FileState.FINISHED, null, 10, null)));
        assertEquals(4, changed.get());
        assertEquals(1, archiving.get());
    }

    @Test
    void attemptsEndedFilesAndTakeoversAreCounted() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        TransferMetrics metrics = new TransferMetrics(registry, new StateEvents());
        metrics.changed(change(FileState.ACTIVE, FileState.FINISHED, new StateChanged.Attempt(FileState.FINISHED, null, 100, null)));
        metrics.changed(change(FileState.ACTIVE, FileState.SUBMITTED, new StateChanged.Attempt(FileState.FAILED, "LEASE_EXPIRED", 0,
                StateChanged.TakenBack.REPLICA_DEAD)));
        metrics.changed(change(FileState.ACTIVE, FileState.FAILED, new StateChanged.Attempt(FileState.CANCELED, "CANCELED", 5, null)));
        metrics.changed(change(FileState.SUBMITTED, FileState.CANCELED, null));
        metrics.changed(change(FileState.ACTIVE, FileState.ARCHIVING, new StateChanged.Attempt(FileState.FINISHED, null, 7, null)));
        metrics.changed(change(FileState.ARCHIVING, FileState.FINISHED, null));
        metrics.changed(change(FileState.READY, FileState.ACTIVE, null));
        assertEquals(2, count(registry, TransferMetrics.ATTEMPTS, "outcome", "FINISHED"));
        assertEquals(107, registry.find(TransferMetrics.BYTES).tag("outcome", "FINISHED").counter().count());
        assertEquals(1, count(registry, TransferMetrics.ATTEMPTS, "error_code", "LEASE_EXPIRED"));
        assertEquals(1, count(registry, TransferMetrics.TAKEOVERS, "reason", TransferMetrics.REPLICA_DEAD));
        assertEquals(4, count(registry, TransferMetrics.FILES_ENDED, "state", "FINISHED"), "two files per change, archived ones on tape");
        assertEquals(4, count(registry, TransferMetrics.FILES_ENDED, "state", "CANCELED"), "an attempt failed as cancelled, and a cancel");
        assertEquals(4, count(registry, TransferMetrics.LINK_ATTEMPTS, "source_se", "SE-A"), "per link: finished twice, failed, cancelled");
    }

    private static double count(SimpleMeterRegistry registry, String meter, String tag, String value) {
        return registry.find(meter).tag(tag, value).counters().stream().mapToDouble(c -> c.count()).sum();
    }
}
