package io.ferry.scheduler.engine;

import io.ferry.scheduler.config.SchedulerConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.net.InetAddress;
import java.util.UUID;

/** The name this replica stamps on the files it claims: configured, else host name, process id and a random part. */
@ApplicationScoped
public class EngineIdentity {

    private final String id;

    @Inject
    public EngineIdentity(SchedulerConfig config) {
        this.id = config.engine().instanceId().orElseGet(() -> {
            String host;
            try {
                host = InetAddress.getLocalHost().getHostName();
            } catch (Exception e) {
                host = "scheduler";
            }
            String name = host + "/" + ProcessHandle.current().pid() + "/" + UUID.randomUUID().toString().substring(0, 8);
            return name.length() > 100 ? name.substring(name.length() - 100) : name;
        });
    }

    public String id() {
        return id;
    }
}
