package io.ferry.scheduler.queue;

import io.ferry.scheduler.config.SchedulerConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.net.InetAddress;
import java.util.UUID;

/**
 * The name this replica stamps on the files it claims: its name (configured, else the host name) and an incarnation
 * of its own for every process start, so a restarted process that keeps its name is never taken for its dead
 * predecessor. A replica declared dead while it was only paused takes a new incarnation ({@link #reincarnate}).
 */
@ApplicationScoped
public class EngineIdentity {

    private final String name;
    private volatile String id;

    @Inject
    public EngineIdentity(SchedulerConfig config) {
        this.name = truncated(config.engine().instanceId().orElseGet(() -> {
            try {
                return InetAddress.getLocalHost().getHostName();
            } catch (Exception e) {
                return "scheduler";
            }
        }));
        reincarnate();
    }

    public String id() {
        return id;
    }

    /** What the replica calls itself, the same over restarts when configured. */
    public String name() {
        return name;
    }

    /** A new incarnation: claims of the old one are no longer this replica's. */
    public synchronized String reincarnate() {
        id = truncated(name + "/" + ProcessHandle.current().pid() + "/" + UUID.randomUUID().toString().substring(0, 8));
        return id;
    }

    private static String truncated(String s) {
        return s.length() > 100 ? s.substring(s.length() - 100) : s;
    }
}
