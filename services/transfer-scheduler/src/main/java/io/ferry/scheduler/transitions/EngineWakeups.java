package io.ferry.scheduler.transitions;

import io.ferry.scheduler.queue.FileState;
import io.ferry.scheduler.transitions.events.StateChanged;
import io.ferry.scheduler.transitions.events.StateEvents;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The one way anything wakes an engine loop: callers say what happened (the state store's committed changes are
 * observed, {@link StateChanged}), the loops that care registered for it when they started. Loops and REST resources therefore never inject a loop; a wake-up nobody registered for (the
 * engine disabled) does nothing.
 */
@ApplicationScoped
public class EngineWakeups {

    /** What happened. */
    public enum Event {
        JOB_SUBMITTED, FILES_REQUEUED, PREPARED_POOL_SHRANK, FILE_PREPARED, FILE_CHANGED, FILE_ARCHIVING
    }

    /** The link a wake-up concerns (null for events that concern no one link). */
    public record Link(String sourceSe, String destSe) {
    }

    private final Map<Event, List<Consumer<Link>>> listeners = new EnumMap<>(Event.class);

    private final StateEvents changes;

    @Inject
    EngineWakeups(StateEvents changes) {
        this.changes = changes;
        for (Event e : Event.values()) {
            listeners.put(e, new CopyOnWriteArrayList<>());
        }
    }

    void observe(@Observes StartupEvent start) {
        changes.subscribe(this::changed);
    }

    /**
     * What a committed change wakes: a change of files may end their job (the settler, the probes), one to ARCHIVING
     * the archive poll. Claims (to ACTIVE), prepares from SUBMITTED, a cancelled file's stopped copy (its record only)
     * and changes of the job alone wake nothing: they cannot end a job.
     */
    void changed(StateChanged c) {
        if (c.to() == null || c.to() == FileState.ACTIVE || c.from() == FileState.SUBMITTED && c.to() == FileState.READY
                || c.from() == FileState.CANCELED && c.to() == FileState.CANCELED) {
            return;
        }
        fileChanged();
        if (c.to() == FileState.ARCHIVING) {
            fileArchiving();
        }
    }

    /** Registers a loop's wake-up for an event. */
    public void on(Event event, Runnable wake) {
        listeners.get(event).add(link -> wake.run());
    }

    /** Registers a loop's wake-up that wants to know which link the event concerns. */
    public void onLink(Event event, Consumer<Link> wake) {
        listeners.get(event).add(wake);
    }

    /** A job was stored: its files wait to be prepared. */
    public void jobSubmitted() {
        fire(Event.JOB_SUBMITTED);
    }

    /** Files went back to the queue (a dead replica's, a drained one's): they wait to be prepared again. */
    public void filesRequeued() {
        fire(Event.FILES_REQUEUED);
    }

    /** Prepared files were claimed for transfer or lost their pin: the prepared pool needs refilling now. */
    public void preparedPoolShrank() {
        fire(Event.PREPARED_POOL_SHRANK);
    }

    /** A file of the link was prepared: it may start. */
    public void filePrepared(String sourceSe, String destSe) {
        fire(Event.FILE_PREPARED, new Link(sourceSe, destSe));
    }

    /** A file changed state: its job may now be over. */
    void fileChanged() {
        fire(Event.FILE_CHANGED);
    }

    /** A copy to a tape SE ended and its file waits to be on tape: ask the SE. */
    void fileArchiving() {
        fire(Event.FILE_ARCHIVING);
    }

    private void fire(Event event) {
        fire(event, null);
    }

    private void fire(Event event, Link link) {
        listeners.get(event).forEach(l -> l.accept(link));
    }
}
