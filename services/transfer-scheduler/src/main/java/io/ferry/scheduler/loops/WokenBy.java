package io.ferry.scheduler.loops;

import io.ferry.scheduler.transitions.EngineWakeups;

import java.util.Set;

/** A loop that runs its next pass at once on these engine events rather than at the end of its period. */
public interface WokenBy {

    Set<EngineWakeups.Event> wokenBy();
}
