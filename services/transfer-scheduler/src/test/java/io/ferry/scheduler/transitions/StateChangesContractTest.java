package io.ferry.scheduler.transitions;

import io.ferry.dev.FerryTestResource;
import io.ferry.scheduler.db.Db;
import io.ferry.scheduler.queue.ClaimedFile;
import io.ferry.scheduler.queue.EngineIdentity;
import io.ferry.scheduler.queue.FileState;
import io.ferry.scheduler.queue.Job;
import io.ferry.scheduler.queue.JobState;
import io.ferry.scheduler.storage.SchedulingInputsCache;
import io.ferry.scheduler.transitions.InMemoryStateStore.FileSpec;
import io.ferry.scheduler.transitions.events.StateChanged;
import io.ferry.scheduler.transitions.events.StateEvents;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.vertx.core.json.JsonArray;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.equalTo;

/**
 * The state store's contract, run against {@link StateChanges} on PostgreSQL (the engine off, as in every test
 * without the engine's profile, so nothing but the test changes its files).
 */
@QuarkusTest
@WithTestResource(value = FerryTestResource.class, scope = TestResourceScope.GLOBAL)
class StateChangesContractTest extends StateStoreContract {

    @Inject
    StateStore store;

    @Inject
    StateEvents events;

    @Inject
    Pool pool;

    @Inject
    EngineIdentity identity;

    @Inject
    SchedulingInputsCache inputs;

    /** The SEs of the contract's URLs ({@link StateStoreContract#seOf}), registered for next source and the records. */
    @BeforeEach
    void storageEndpoints() {
        for (String[] se : new String[][]{{"SE-A", "https://a.example"}, {"SE-B", "https://b.example"}, {"SE-C", "https://c.example"},
                {"SE-D", "https://d.example"}}) {
            given().auth().oauth2(FerryTestResource.token(null, "transfer:admin")).contentType(ContentType.JSON)
                    .body("{\"site\":\"" + se[0] + "-SITE\",\"baseUrls\":{\"https\":\"" + se[1] + "\"},\"access\":{\"open\":true}}")
                    .put("/endpoints/" + se[0]).then().statusCode(anyOf(equalTo(200), equalTo(201)));
        }
        inputs.get(Set.of("SE-A", "SE-B", "SE-C", "SE-D"));
    }

    @Override
    StateStore store() {
        return store;
    }

    @Override
    String replica() {
        return identity.id();
    }

    @Override
    void listen(Consumer<StateChanged> listener) {
        events.subscribe(listener);
    }

    @Override
    UUID submit(String vo, int retry, boolean multihop, List<FileSpec> files) {
        Job job = new Job();
        job.jobId = UUID.randomUUID();
        job.vo = vo;
        job.userDn = "/CN=contract";
        job.state = JobState.SUBMITTED;
        job.priority = 3;
        job.verifyChecksum = "none";
        job.params = "{}";
        job.retry = retry;
        job.jobType = multihop ? "H" : "N";
        job.overwriteHop = multihop;
        job.sourceSe = files.get(0).sourceSe();
        job.destSe = files.get(files.size() - 1).destSe();
        job.submittedAt = OffsetDateTime.now(ZoneOffset.UTC);
        List<JobInserts.NewFile> rows = new ArrayList<>();
        for (int i = 0; i < files.size(); i++) {
            FileSpec f = files.get(i);
            rows.add(new JobInserts.NewFile(i, "default", f.source(), f.dest(), f.sourceSe(), f.destSe(),
                    f.alternatives().isEmpty() ? null : new JsonArray(f.alternatives()).encode(), 10L, null, null,
                    multihop && i > 0 ? FileState.NOT_USED : FileState.SUBMITTED));
        }
        pool.withTransaction(c -> JobInserts.insert(c, job, rows, JobInserts.claimBy(job, java.time.Duration.ofHours(6)))).await().atMost(Db.WAIT);
        return job.jobId;
    }

    @Override
    List<Long> files(UUID job) {
        List<Long> ids = new ArrayList<>();
        pool.preparedQuery("SELECT file_id FROM transfer_file WHERE job_id = $1 ORDER BY file_index").execute(Tuple.of(job))
                .await().atMost(Db.WAIT).forEach(r -> ids.add(r.getLong(0)));
        return ids;
    }

    /** As the prepare loop's claim: leased to this replica under a new epoch. */
    @Override
    ClaimedFile claimForPrepare(long file) {
        return ClaimedFile.of(pool.preparedQuery("UPDATE transfer_file f SET claim_epoch = f.claim_epoch + 1, lease_owner = $2, "
                        + "lease_until = now() + interval '1 minute', prepare_started_at = now() FROM job j WHERE j.job_id = f.job_id "
                        + "AND f.file_id = $1 AND f.state IN ('SUBMITTED', 'STAGING') AND f.lease_owner IS NULL RETURNING " + ClaimedFile.COLUMNS)
                .execute(Tuple.of(file, identity.id())).await().atMost(Db.WAIT).iterator().next());
    }

    @Override
    FileState fileState(long file) {
        return FileState.valueOf(fileRow(file, "state").getString(0));
    }

    @Override
    JobState jobState(UUID job) {
        return JobState.valueOf(pool.preparedQuery("SELECT state FROM job WHERE job_id = $1").execute(Tuple.of(job))
                .await().atMost(Db.WAIT).iterator().next().getString(0));
    }

    @Override
    int attempts(long file) {
        return fileRow(file, "attempts").getInteger(0);
    }

    @Override
    String sourceUrl(long file) {
        return fileRow(file, "source_url").getString(0);
    }

    private Row fileRow(long file, String column) {
        return pool.preparedQuery("SELECT " + column + " FROM transfer_file WHERE file_id = $1").execute(Tuple.of(file))
                .await().atMost(Db.WAIT).iterator().next();
    }
}
