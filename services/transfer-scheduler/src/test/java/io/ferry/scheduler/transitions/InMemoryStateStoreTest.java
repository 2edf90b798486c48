package io.ferry.scheduler.transitions;

import io.ferry.scheduler.queue.ClaimedFile;
import io.ferry.scheduler.queue.FileState;
import io.ferry.scheduler.queue.JobState;
import io.ferry.scheduler.transitions.InMemoryStateStore.FileSpec;
import io.ferry.scheduler.transitions.events.StateChanged;
import io.ferry.scheduler.transitions.events.StateEvents;

import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;

/** The state store's contract, run against {@link InMemoryStateStore}: no Quarkus, no database. */
class InMemoryStateStoreTest extends StateStoreContract {

    private final StateEvents events = new StateEvents();
    private final InMemoryStateStore store = new InMemoryStateStore(events, REPLICA, StateStoreContract::seOf);

    @Override
    StateStore store() {
        return store;
    }

    @Override
    String replica() {
        return REPLICA;
    }

    @Override
    void listen(Consumer<StateChanged> listener) {
        events.subscribe(listener);
    }

    @Override
    UUID submit(String vo, int retry, boolean multihop, List<FileSpec> files) {
        return store.submit(vo, retry, multihop, files);
    }

    @Override
    List<Long> files(UUID job) {
        return store.files(job);
    }

    @Override
    ClaimedFile claimForPrepare(long file) {
        return store.claimForPrepare(file);
    }

    @Override
    FileState fileState(long file) {
        return store.fileState(file);
    }

    @Override
    JobState jobState(UUID job) {
        return store.jobState(job);
    }

    @Override
    int attempts(long file) {
        return store.attempts(file);
    }

    @Override
    String sourceUrl(long file) {
        return store.sourceUrl(file);
    }
}
