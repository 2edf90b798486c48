package io.ferry.scheduler.service;

import io.ferry.scheduler.repository.SchedulingInputs;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Duration;
import java.util.Map;

/** The registered SEs as the last scheduling pass read them (sites for records, base URLs and caps for movers). */
@ApplicationScoped
public class SiteDirectory {

    @Inject
    Pool pool;

    private volatile Map<String, SchedulingInputs.Se> ses = Map.of();

    public void update(Map<String, SchedulingInputs.Se> latest) {
        ses = Map.copyOf(latest);
    }

    public SchedulingInputs.Se se(String name) {
        SchedulingInputs.Se se = ses.get(name);
        if (se == null) {
            // an SE registered since the last pass
            update(pool.withConnection(SchedulingInputs::load).await().atMost(Duration.ofSeconds(10)).ses());
            se = ses.get(name);
        }
        return se;
    }
}
