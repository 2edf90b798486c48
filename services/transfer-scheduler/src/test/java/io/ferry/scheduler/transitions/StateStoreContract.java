package io.ferry.scheduler.transitions;

import io.ferry.movers.MoverException;
import io.ferry.movers.SourceStat;
import io.ferry.scheduler.queue.AttemptTimes;
import io.ferry.scheduler.queue.ClaimedFile;
import io.ferry.scheduler.queue.FileState;
import io.ferry.scheduler.queue.JobState;
import io.ferry.scheduler.queue.QueueSnapshot;
import io.ferry.scheduler.transitions.InMemoryStateStore.FileSpec;
import io.ferry.scheduler.transitions.events.StateChanged;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The behaviour every {@link StateStore} owes: retries, next source, cancel, multihop, settling, guards, and one
 * {@link StateChanged} per committed change. A subclass gives the store and the few reads of its rows the checks need.
 */
abstract class StateStoreContract {

    static final String REPLICA = "replica-1";
    static final Duration LEASE = Duration.ofMinutes(1);
    static final Duration PIN = Duration.ofMinutes(10);
    static final AttemptTimes TIMES = AttemptTimes.prepare(OffsetDateTime.now(), OffsetDateTime.now());

    /** The SEs the sources below belong to; any other host has none. */
    static String seOf(String url) {
        return url.startsWith("https://a") ? "SE-A" : url.startsWith("https://c") ? "SE-C" : url.startsWith("https://d") ? "SE-D" : null;
    }

    final List<StateChanged> heard = new CopyOnWriteArrayList<>();
    /** The VO of this test's jobs: its queues are this test's alone (a store may hold other tests' files). */
    final String vo = "vo-" + UUID.randomUUID().toString().substring(0, 8);

    abstract StateStore store();

    /** The replica whose claims the changes check. */
    abstract String replica();

    /** Registers a listener of the store's announcements. */
    abstract void listen(Consumer<StateChanged> listener);

    abstract UUID submit(String vo, int retry, boolean multihop, List<FileSpec> files);

    abstract List<Long> files(UUID job);

    abstract ClaimedFile claimForPrepare(long file);

    abstract FileState fileState(long file);

    abstract JobState jobState(UUID job);

    abstract int attempts(long file);

    abstract String sourceUrl(long file);

    @BeforeEach
    void hear() {
        listen(heard::add);
    }

    static FileSpec file(String name) {
        return new FileSpec("https://a.example/" + name, "https://b.example/" + name, "SE-A", "SE-B");
    }

    /** Prepares the file and claims it for transfer (it must be the only prepared file of its link). */
    ClaimedFile start(long id) {
        ClaimedFile p = claimForPrepare(id);
        assertTrue(store().prepared(p, new SourceStat(10, false, null)), "prepared");
        StateStore.Claim claim = store().schedulingPass(pass -> {
            QueueSnapshot q = pass.startable(PIN).stream().filter(s -> s.sourceSe().equals(p.sourceSe()) && s.destSe().equals(p.destSe())
                            && s.vo().equals(vo) && s.ready() > 0)
                    .findFirst().orElseThrow();
            return pass.claimStarted(q, 1, replica(), LEASE, PIN, "transfer started");
        });
        claim.jobsToStart().forEach((job, ids) -> store().started(job, ids, "transfer started"));
        assertEquals(1, claim.files().size());
        ClaimedFile f = claim.files().get(0);
        assertEquals(id, f.fileId());
        assertEquals(FileState.ACTIVE, f.state());
        return f;
    }

    void finish(long id) {
        store().finished(start(id), 10, 1, 1.0, TIMES);
    }

    static MoverException failure(MoverException.Code code) {
        return new MoverException(code, "transfer", code.name().toLowerCase());
    }

    List<StateChanged> heardOf(long file) {
        return heard.stream().filter(e -> e.fileIds().contains(file)).toList();
    }

    List<StateChanged> heardOfJob(UUID job) {
        return heard.stream().filter(e -> e.jobId().equals(job)).toList();
    }

    // --- retry ---

    @Test
    void aRecoverableFailureIsTriedAgainUntilTheRetriesRunOut() {
        UUID job = submit(vo, 2, false, List.of(file("x")));
        long id = files(job).get(0);
        for (int attempt = 1; attempt <= 2; attempt++) {
            ClaimedFile f = start(id);
            assertEquals(attempt, f.attempts());
            store().failed(f, Guard.RUNNING, f.attempts(), failure(MoverException.Code.TIMEOUT), 0, null, TIMES);
            assertEquals(FileState.SUBMITTED, fileState(id), "attempt " + attempt + " is retried");
            assertEquals(JobState.SUBMITTED, jobState(job), "by the rule: nothing active, staging or done");
        }
        ClaimedFile last = start(id);
        store().failed(last, Guard.RUNNING, last.attempts(), failure(MoverException.Code.TIMEOUT), 5, null, TIMES);
        assertEquals(FileState.FAILED, fileState(id));
        assertEquals(3, attempts(id));
        assertEquals(JobState.FAILED, jobState(job));
        StateChanged end = heardOf(id).get(heardOf(id).size() - 1);
        assertEquals(FileState.ACTIVE, end.from());
        assertEquals(FileState.FAILED, end.to());
        assertEquals(JobState.FAILED, end.job());
        assertEquals(new StateChanged.Attempt(FileState.FAILED, "TIMEOUT", 5, null), end.attempt());
    }

    @Test
    void anUnrecoverableFailureIsNotTriedAgain() {
        UUID job = submit(vo, 3, false, List.of(file("x")));
        long id = files(job).get(0);
        ClaimedFile f = start(id);
        store().failed(f, Guard.RUNNING, f.attempts(), failure(MoverException.Code.PERMISSION_DENIED), 0, null, TIMES);
        assertEquals(FileState.FAILED, fileState(id));
        assertEquals(JobState.FAILED, jobState(job));
    }

    @Test
    void aFileTakenBackFromADeadReplicaIsTriedAgainWithoutUsingARetry() {
        UUID job = submit(vo, 0, false, List.of(file("x")));
        long id = files(job).get(0);
        ClaimedFile f = start(id);
        store().failed(f, Guard.ABANDONED, f.attempts(), failure(MoverException.Code.LEASE_EXPIRED), 0, null, TIMES);
        assertEquals(FileState.SUBMITTED, fileState(id));
        StateChanged e = heardOf(id).get(heardOf(id).size() - 1);
        assertEquals(StateChanged.TakenBack.REPLICA_DEAD, e.attempt().takenBack());
    }

    // --- next source ---

    @Test
    void aFileMovesToItsNextSourceWhenTheCurrentOneFailsForGood() {
        UUID job = submit(vo, 0, false, List.of(new FileSpec("https://a.example/x", "https://b.example/x", "SE-A", "SE-B",
                List.of("https://c.example/x", "https://d.example/x"))));
        long id = files(job).get(0);
        ClaimedFile f = start(id);
        store().failed(f, Guard.RUNNING, f.attempts(), failure(MoverException.Code.SOURCE_NOT_FOUND), 0, null, TIMES);
        assertEquals(FileState.SUBMITTED, fileState(id));
        assertEquals("https://c.example/x", sourceUrl(id));
        ClaimedFile second = start(id);
        assertEquals("SE-C", second.sourceSe());
        assertEquals(List.of("https://d.example/x"), second.alternativeSources());
        store().failed(second, Guard.RUNNING, second.attempts(), failure(MoverException.Code.CHECKSUM_MISMATCH), 0, null, TIMES);
        assertEquals("https://d.example/x", sourceUrl(id));
        ClaimedFile third = start(id);
        assertEquals(List.of(), third.alternativeSources());
        store().failed(third, Guard.RUNNING, third.attempts(), failure(MoverException.Code.SOURCE_NOT_FOUND), 0, null, TIMES);
        assertEquals(FileState.FAILED, fileState(id), "no source left");
        assertEquals(JobState.FAILED, jobState(job));
    }

    @Test
    void aFailureAnotherSourceCannotMendEndsTheFile() {
        UUID job = submit(vo, 0, false, List.of(new FileSpec("https://a.example/x", "https://b.example/x", "SE-A", "SE-B",
                List.of("https://c.example/x"))));
        long id = files(job).get(0);
        ClaimedFile f = start(id);
        store().failed(f, Guard.RUNNING, f.attempts(), failure(MoverException.Code.DEST_EXISTS), 0, null, TIMES);
        assertEquals(FileState.FAILED, fileState(id));
        assertEquals("https://a.example/x", sourceUrl(id));
    }

    @Test
    void aNextSourceOfNoRegisteredSeIsNotTried() {
        UUID job = submit(vo, 0, false, List.of(new FileSpec("https://a.example/x", "https://b.example/x", "SE-A", "SE-B",
                List.of("https://unknown.example/x"))));
        long id = files(job).get(0);
        ClaimedFile f = start(id);
        store().failed(f, Guard.RUNNING, f.attempts(), failure(MoverException.Code.SOURCE_NOT_FOUND), 0, null, TIMES);
        assertEquals(FileState.FAILED, fileState(id));
    }

    // --- cancel ---

    @Test
    void aCancelEndsEveryOpenFileAndTheJobAndTheRunningCopyCannotFinishIt() {
        UUID job = submit(vo, 0, false, List.of(file("x"), file("y")));
        long running = files(job).get(0);
        long queued = files(job).get(1);
        ClaimedFile f = start(running);
        store().cancel(job, null, "user", ids -> new IllegalArgumentException()).await().indefinitely();
        assertEquals(FileState.CANCELED, fileState(running));
        assertEquals(FileState.CANCELED, fileState(queued));
        assertEquals(JobState.CANCELED, jobState(job));
        store().finished(f, 10, 1, 1.0, TIMES);
        assertEquals(FileState.CANCELED, fileState(running), "the guard refuses the cancelled file's outcome");
        List<StateChanged> cancels = heardOfJob(job).stream().filter(e -> e.to() == FileState.CANCELED).toList();
        assertEquals(2, cancels.size(), "one per state the files left");
        assertTrue(cancels.stream().allMatch(e -> e.job() == JobState.CANCELED));
    }

    @Test
    void aCancelOfSomeFilesLeavesTheOthers() {
        UUID job = submit(vo, 0, false, List.of(file("x"), file("y"), file("z")));
        List<Long> ids = files(job);
        store().cancel(job, List.of(ids.get(0)), "user", x -> new IllegalArgumentException()).await().indefinitely();
        assertEquals(FileState.CANCELED, fileState(ids.get(0)));
        assertEquals(FileState.SUBMITTED, fileState(ids.get(1)));
        assertEquals(JobState.ACTIVE, jobState(job), "a file is done");
        finish(ids.get(1));
        finish(ids.get(2));
        assertEquals(JobState.FINISHEDDIRTY, jobState(job));
    }

    @Test
    void aFinishedJobIsLeftAsItIs() {
        UUID job = submit(vo, 0, false, List.of(file("x")));
        long id = files(job).get(0);
        finish(id);
        assertEquals(JobState.FINISHED, jobState(job));
        int before = heardOfJob(job).size();
        store().cancel(job, null, "user", x -> new IllegalArgumentException()).await().indefinitely();
        assertEquals(JobState.FINISHED, jobState(job));
        assertEquals(FileState.FINISHED, fileState(id));
        assertEquals(before, heardOfJob(job).size(), "nothing changed, nothing announced");
    }

    @Test
    void aCancelNamingFilesOfAnotherJobChangesNothing() {
        UUID job = submit(vo, 0, false, List.of(file("x")));
        long id = files(job).get(0);
        assertThrows(IllegalArgumentException.class, () -> store().cancel(job, List.of(id, 999_999L), "user",
                missing -> new IllegalArgumentException(missing.toString())).await().indefinitely());
        assertEquals(FileState.SUBMITTED, fileState(id));
        assertEquals(JobState.SUBMITTED, jobState(job));
    }

    // --- multihop ---

    @Test
    void theNextHopIsReleasedWhenThePreviousFinishes() {
        UUID job = submit(vo, 0, true, List.of(file("hop1"), file("hop2"), file("hop3")));
        List<Long> hops = files(job);
        assertEquals(FileState.NOT_USED, fileState(hops.get(1)));
        ClaimedFile first = start(hops.get(0));
        assertTrue(first.overwrite(), "an intermediate hop may be replaced");
        store().finished(first, 10, 1, 1.0, TIMES);
        assertEquals(FileState.SUBMITTED, fileState(hops.get(1)));
        assertEquals(FileState.NOT_USED, fileState(hops.get(2)));
        assertEquals(JobState.ACTIVE, jobState(job));
        finish(hops.get(1));
        finish(hops.get(2));
        assertEquals(JobState.FINISHED, jobState(job));
    }

    @Test
    void aBrokenChainFailsTheJobAndLeavesTheLaterHopsUnused() {
        UUID job = submit(vo, 0, true, List.of(file("hop1"), file("hop2"), file("hop3")));
        List<Long> hops = files(job);
        finish(hops.get(0));
        ClaimedFile second = start(hops.get(1));
        store().failed(second, Guard.RUNNING, second.attempts(), failure(MoverException.Code.PERMISSION_DENIED), 0, null, TIMES);
        assertEquals(FileState.FAILED, fileState(hops.get(1)));
        assertEquals(FileState.NOT_USED, fileState(hops.get(2)));
        assertEquals(JobState.FAILED, jobState(job), "a chain is finished only when every hop is");
    }

    @Test
    void aChainBrokenByACancelIsCanceled() {
        UUID job = submit(vo, 0, true, List.of(file("hop1"), file("hop2")));
        List<Long> hops = files(job);
        finish(hops.get(0));
        store().cancel(job, null, "user", x -> new IllegalArgumentException()).await().indefinitely();
        assertEquals(JobState.CANCELED, jobState(job));
    }

    // --- settle ---

    @Test
    void aJobSettlesByTheRule() {
        UUID job = submit(vo, 0, false, List.of(file("x"), file("y")));
        List<Long> ids = files(job);
        finish(ids.get(0));
        assertEquals(JobState.ACTIVE, jobState(job));
        ClaimedFile f = start(ids.get(1));
        store().failed(f, Guard.RUNNING, f.attempts(), failure(MoverException.Code.SOURCE_NOT_FOUND), 0, null, TIMES);
        assertEquals(JobState.FINISHEDDIRTY, jobState(job), "some finished, some failed");
        assertFalse(store().unsettledJobs().contains(job));
        store().settle(job);
        assertEquals(JobState.FINISHEDDIRTY, jobState(job));
        StateChanged last = heardOfJob(job).get(heardOfJob(job).size() - 1);
        assertEquals(List.of(), last.fileIds());
        assertEquals(JobState.FINISHEDDIRTY, last.job());
    }

    @Test
    void anArchivingFileKeepsItsJobOpenUntilItIsOnTape() {
        UUID job = submit(vo, 0, false, List.of(file("x")));
        long id = files(job).get(0);
        ClaimedFile f = start(id);
        store().finished(f, 10, 1, 1.0, TIMES, true);
        assertEquals(FileState.ARCHIVING, fileState(id));
        assertEquals(JobState.ACTIVE, jobState(job));
        assertTrue(store().archived(new ClaimedFile(f.fileId(), f.jobId(), f.attempts(), f.vo(), f.activity(), f.sourceUrl(), f.destUrl(),
                f.sourceSe(), f.destSe(), f.filesize(), f.checksum(), FileState.ARCHIVING, f.submittedAt(), f.prepareStartedAt(),
                f.preparedAt(), f.stageRequest(), f.sourceSize(), f.sourceRanges(), f.destOurs(), f.verify(), f.overwrite(), f.retry(),
                f.retryDelay(), f.timeout(), f.nostreams(), f.alternatives(), f.claimEpoch(), f.hasTokens(), f.scitag())));
        assertEquals(FileState.FINISHED, fileState(id));
        assertEquals(JobState.FINISHED, jobState(job));
    }

    // --- guards and announcements ---

    @Test
    void aChangeOfAnEarlierClaimIsRefusedAndNotAnnounced() {
        UUID job = submit(vo, 1, false, List.of(file("x")));
        long id = files(job).get(0);
        ClaimedFile first = start(id);
        assertTrue(store().handedBack(first, "draining"));
        assertEquals(0, attempts(id), "a handed back attempt is not counted");
        ClaimedFile second = start(id);
        int before = heardOfJob(job).size();
        store().finished(first, 10, 1, 1.0, TIMES);
        assertEquals(FileState.ACTIVE, fileState(id), "the earlier claim's outcome is refused");
        assertEquals(before, heardOfJob(job).size());
        store().finished(second, 10, 1, 1.0, TIMES);
        assertEquals(FileState.FINISHED, fileState(id));
    }

    @Test
    void eachCommittedChangeIsAnnouncedOnceWithItsStates() {
        UUID job = submit(vo, 0, false, List.of(file("x")));
        long id = files(job).get(0);
        finish(id);
        List<StateChanged> ofFile = heardOf(id);
        assertEquals(List.of(FileState.SUBMITTED, FileState.READY, FileState.ACTIVE), ofFile.stream().map(StateChanged::from).toList());
        assertEquals(List.of(FileState.READY, FileState.ACTIVE, FileState.FINISHED), ofFile.stream().map(StateChanged::to).toList());
        StateChanged done = ofFile.get(2);
        assertEquals(JobState.FINISHED, done.job());
        assertEquals(new StateChanged.Link("SE-A", "SE-B"), done.link());
        assertEquals(vo, done.vo());
        assertEquals(new StateChanged.Attempt(FileState.FINISHED, null, 10, null), done.attempt());
        List<StateChanged> ofJob = heardOfJob(job).stream().filter(e -> e.fileIds().isEmpty()).toList();
        assertEquals(1, ofJob.size(), "the job's start");
        assertSame(JobState.ACTIVE, ofJob.get(0).job());
        assertNull(ofJob.get(0).to());
        assertFalse(done.fileIds().isEmpty());
    }
}
