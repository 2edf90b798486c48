package io.ferry.scheduler.engine;

import io.ferry.scheduler.service.JobEvents;
import io.ferry.scheduler.state.StateChanges;
import io.ferry.scheduler.config.SchedulerConfig;
import io.ferry.scheduler.repository.Tx;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Closes jobs whose last files closed without settling the job: two last files finishing at once (each saw the
 * other still open), or a job row that was busy at that moment. Runs every tick and whenever a file changes; the
 * final state is announced on the job's last-changed file.
 */
@ApplicationScoped
public class JobStateSettler extends EngineLoop {

    @Inject
    SchedulerConfig config;

    @Inject
    Pool pool;

    @Inject
    JobEvents events;

    void onStart(@Observes StartupEvent e) {
        if (config.engine().enabled()) {
            start("job-states");
        }
    }

    void onStop(@Observes ShutdownEvent e) {
        stop();
    }

    @Override
    protected Duration period() {
        return config.engine().tick().multipliedBy(4);
    }

    @Override
    protected void pass() {
        List<UUID> unsettled = new ArrayList<>();
        for (Row r : pool.query("SELECT job_id FROM job j WHERE state IN ('SUBMITTED', 'STAGING', 'ACTIVE') AND NOT EXISTS ("
                + "SELECT 1 FROM transfer_file f WHERE f.job_id = j.job_id AND f.state IN ('SUBMITTED', 'STAGING', 'READY', 'ACTIVE')) LIMIT 500")
                .execute().await().atMost(StateChanges.WAIT)) {
            unsettled.add(r.getUUID(0));
        }
        for (UUID job : unsettled) {
            Tx.run(pool, c -> {
                if (c.preparedQuery("SELECT 1 FROM job WHERE job_id = $1 FOR UPDATE SKIP LOCKED").execute(Tuple.of(job)).await()
                        .atMost(StateChanges.WAIT).size() == 0) {
                    return null;
                }
                String state = StateChanges.refreshJob(c, job).await().atMost(StateChanges.WAIT);
                var last = c.preparedQuery("SELECT file_id, state FROM transfer_file WHERE job_id = $1 ORDER BY finish_time DESC NULLS LAST LIMIT 1")
                        .execute(Tuple.of(job)).await().atMost(StateChanges.WAIT);
                if (last.size() > 0) {
                    Row f = last.iterator().next();
                    events.publish(c, job, List.of(f.getLong(0)), f.getString(1), state, "job " + state).await().atMost(StateChanges.WAIT);
                }
                return null;
            });
        }
    }
}
