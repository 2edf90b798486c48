package io.ferry.scheduler.replicas;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** Whether the engine may claim files now: only while this replica's heartbeat gets through and it is not draining. */
@ApplicationScoped
public class ClaimPermit {

    private final ReplicaHeartbeat heartbeat;
    private final EngineDrain drain;

    @Inject
    ClaimPermit(ReplicaHeartbeat heartbeat, EngineDrain drain) {
        this.heartbeat = heartbeat;
        this.drain = drain;
    }

    public boolean mayClaim() {
        return heartbeat.alive() && !drain.draining();
    }
}
