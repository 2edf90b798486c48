package io.ferry.scheduler.transitions.events;

import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The in-process bus of {@link StateChanged}: the state store publishes each change after it committed, on the
 * thread that made it; observers (wake-ups, counters) subscribe once when they start. An observer that throws is
 * logged and does not stop the others, nor undo the change.
 */
@ApplicationScoped
public class StateEvents {

    private static final Logger LOG = Logger.getLogger(StateEvents.class);

    private final List<Consumer<StateChanged>> observers = new CopyOnWriteArrayList<>();

    /** Registers an observer of every committed change. */
    public void subscribe(Consumer<StateChanged> observer) {
        observers.add(observer);
    }

    /** Announces a committed change to every observer. */
    public void publish(StateChanged change) {
        for (Consumer<StateChanged> o : observers) {
            try {
                o.accept(change);
            } catch (RuntimeException e) {
                LOG.warnf(e, "an observer of state changes failed on job %s", change.jobId());
            }
        }
    }
}
