package io.ferry.scheduler.transitions;

import io.ferry.dev.FerryTestResource;
import io.ferry.movers.MoverException;
import io.ferry.scheduler.EngineFixture;
import io.ferry.scheduler.queue.AttemptTimes;
import io.ferry.scheduler.queue.ClaimedFile;
import io.ferry.scheduler.queue.QueueSnapshot;
import io.ferry.scheduler.transitions.Guard;
import io.ferry.scheduler.transitions.StateChanges;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The queue's SQL on PostgreSQL: the prepare snapshot's counts, and a copy that outlived its claim. */
@QuarkusTest
@TestProfile(EngineFixture.WithEngine.class)
@WithTestResource(value = FerryTestResource.class, scope = TestResourceScope.GLOBAL)
class FileQueueTest extends EngineFixture {

    @Inject
    StateChanges outcomes;

    @Test
    void thePrepareSnapshotCountsWaitingFilesOnlyUpToTheCapAndWhatQueuesHoldInFull() {
        // on SEs nobody registered: the engine leaves these files alone while the test reads its snapshot
        UUID job = UUID.randomUUID();
        String insert = "INSERT INTO transfer_file (job_id, file_index, vo, activity, source_url, dest_url, source_se, dest_se, state, "
                + "lease_owner, lease_until, next_attempt_at, prepared_at) SELECT $1::uuid, $2::int * 100 + i, $3::text, 'default', "
                + "'https://snap-x/' || ($2::int * 100 + i), 'https://snap-y/' || ($2::int * 100 + i), 'SNAP-X', 'SNAP-Y', $4::text, $5::text, "
                + "now() + make_interval(secs => $6::float8), now() + make_interval(secs => $7::float8), "
                + "CASE WHEN $4::text = 'READY' THEN now() END FROM generate_series(1, $8::int) i";
        pool.withTransaction(c -> c.preparedQuery("INSERT INTO job (job_id, vo, user_dn, state, priority, verify_checksum, overwrite, retry, "
                        + "retry_delay, params) VALUES ($1, 'atlas', 'snapshot', 'ACTIVE', 3, 'none', false, 0, 0, '{}')").execute(Tuple.of(job))
                .chain(x -> c.preparedQuery(insert).executeBatch(List.of(
                        Tuple.tuple().addUUID(job).addInteger(1).addString("atlas").addString("SUBMITTED").addString(null).addDouble(null).addDouble(0.0).addInteger(10),
                        Tuple.tuple().addUUID(job).addInteger(2).addString("atlas").addString("SUBMITTED").addString("snapshot/1").addDouble(3600.0).addDouble(0.0).addInteger(2),
                        Tuple.tuple().addUUID(job).addInteger(3).addString("atlas").addString("SUBMITTED").addString(null).addDouble(null).addDouble(3600.0).addInteger(1),
                        Tuple.tuple().addUUID(job).addInteger(4).addString("atlas").addString("READY").addString(null).addDouble(null).addDouble(0.0).addInteger(3),
                        Tuple.tuple().addUUID(job).addInteger(5).addString("atlas").addString("ACTIVE").addString("snapshot/1").addDouble(3600.0).addDouble(0.0).addInteger(2),
                        Tuple.tuple().addUUID(job).addInteger(6).addString("atlas").addString("STAGING").addString(null).addDouble(null).addDouble(3600.0).addInteger(1),
                        Tuple.tuple().addUUID(job).addInteger(7).addString("cms").addString("SUBMITTED").addString(null).addDouble(null).addDouble(0.0).addInteger(1))))
        ).await().atMost(Duration.ofSeconds(10));
        try {
            Duration pin = Duration.ofHours(1);
            Map<String, QueueSnapshot> capped = snapshotOfSnapLink(pin, 4);
            assertEquals(new QueueSnapshot("SNAP-X", "SNAP-Y", "atlas", "default", 4, 2, 3, 2, 1), capped.get("atlas"),
                    "waiting counted up to the cap; prepare claims, READY, ACTIVE and STAGING in full");
            assertEquals(new QueueSnapshot("SNAP-X", "SNAP-Y", "cms", "default", 1, 0, 0, 0, 0), capped.get("cms"));
            assertEquals(10, snapshotOfSnapLink(pin, 100).get("atlas").waiting(), "below the cap every due waiting file is counted, no leased or later one");
        } finally {
            pool.preparedQuery("DELETE FROM job WHERE job_id = $1").execute(Tuple.of(job)).await().atMost(Duration.ofSeconds(10));
        }
    }

    private Map<String, QueueSnapshot> snapshotOfSnapLink(Duration pin, int cap) {
        Map<String, QueueSnapshot> byVo = new HashMap<>();
        pool.withConnection(c -> queue.snapshot(c, pin, cap)).await().atMost(Duration.ofSeconds(10)).stream()
                .filter(q -> q.sourceSe().equals("SNAP-X")).forEach(q -> byVo.put(q.vo(), q));
        return byVo;
    }

    @Test
    void aCopyThatOutlivedItsClaimCannotFinishTheFileEvenOnTheSameReplica() throws Exception {
        long fileId = finishedFile("epoch");
        ClaimedFile stale = claimedAgainBy(fileId, identity.id());
        ClaimedFile current = claimedAgainBy(fileId, identity.id());
        AttemptTimes times = AttemptTimes.prepare(OffsetDateTime.now(), OffsetDateTime.now());
        outcomes.finished(stale, 100_000, 1, 1e6, times);
        assertEquals("ACTIVE", stateOf(fileId), "the earlier claim's outcome is refused");
        outcomes.failed(stale, Guard.RUNNING, stale.attempts(), new MoverException(MoverException.Code.CONNECTION_RESET, "transfer",
                "late failure of the earlier claim"), 0, 1, times);
        assertEquals("ACTIVE", stateOf(fileId), "so is its failure");
        outcomes.finished(current, 100_000, 1, 1e6, times);
        assertEquals("FINISHED", stateOf(fileId), "the current claim's outcome is written");
    }
}
