package io.ferry.scheduler.replicas;

import io.ferry.dev.FerryTestResource;
import io.ferry.scheduler.EngineFixture;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.sqlclient.Tuple;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A replica that stops beating loses its copies to the others within seconds, not a lease. */
@QuarkusTest
@TestProfile(EngineFixture.WithEngine.class)
@WithTestResource(value = FerryTestResource.class, scope = TestResourceScope.GLOBAL)
class ReplicaTakeoverTest extends EngineFixture {

    @Test
    void aReplicaThatStopsBeatingLosesItsCopyWithinSecondsNotALease() throws Exception {
        Double takenBefore = metric("ferry_lease_takeovers_total", "reason", "replica_dead");
        long fileId = finishedFile("ghost");
        claimedAgainBy(fileId, "ghost/1/dead");
        pool.preparedQuery("INSERT INTO scheduler_replica (replica_id, name, beat_at) VALUES ('ghost/1/dead', 'ghost', now() - interval '6 seconds')")
                .execute().await().atMost(Duration.ofSeconds(10));
        // the lease holds for an hour: only the missed heartbeat can bring the file back, and this replica moves it again
        await().atMost(Duration.ofSeconds(15)).until(() -> "FINISHED".equals(stateOf(fileId)));
        String reasons = pool.preparedQuery("SELECT string_agg(error_code || ': ' || reason, '; ') FROM file_retry WHERE file_id = $1")
                .execute(Tuple.of(fileId)).await().atMost(Duration.ofSeconds(10)).iterator().next().getString(0);
        assertTrue(reasons != null && reasons.contains("LEASE_EXPIRED: the scheduler replica moving it stopped beating"), reasons);
        assertEquals((takenBefore == null ? 0 : takenBefore) + 1, metric("ferry_lease_takeovers_total", "reason", "replica_dead"));
        assertEquals(0, pool.preparedQuery("SELECT 1 FROM scheduler_replica WHERE replica_id = 'ghost/1/dead'").execute().await()
                .atMost(Duration.ofSeconds(10)).size(), "the dead replica is forgotten once its files are back");
        assertTrue(pool.preparedQuery("SELECT 1 FROM scheduler_replica WHERE replica_id = $1 AND NOT dead").execute(Tuple.of(identity.id()))
                .await().atMost(Duration.ofSeconds(10)).size() == 1, "this replica beats under its own incarnation");
    }
}
