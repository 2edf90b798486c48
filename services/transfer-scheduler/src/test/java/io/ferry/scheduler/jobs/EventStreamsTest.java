package io.ferry.scheduler.jobs;

import io.ferry.dev.DevTokens;
import io.ferry.dev.FerryTestResource;
import io.ferry.scheduler.config.EventStreamConfig;
import io.ferry.scheduler.queue.FileState;
import io.ferry.scheduler.queue.JobState;
import io.ferry.scheduler.transitions.CommittedBefore;
import io.ferry.scheduler.transitions.JobEvents;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.helpers.test.AssertSubscriber;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code GET /jobs/{id}/events} as a hostile or careless client uses it: streams opened and dropped without a
 * goodbye by the thousand, and more streams than one client or one replica may hold.
 */
@QuarkusTest
@WithTestResource(value = FerryTestResource.class, scope = TestResourceScope.GLOBAL)
class EventStreamsTest {

    static final String PROBLEM = "application/problem+json";
    static final AtomicInteger SUBJECTS = new AtomicInteger();

    @TestHTTPResource("/")
    URL base;

    @Inject
    JobEvents events;

    @Inject
    EventStreamLimits limits;

    @Inject
    EventStreamConfig config;

    @Inject
    Pool pool;

    private static String jobId;

    @Test
    void aThousandStreamsDroppedAbruptlyLeaveNoSubscriberAndNoHeapBehind() throws Exception {
        String id = job();
        // Warm up (class loading, pools, JIT) so that what is measured afterwards is what the streams leave behind.
        cycles(id, 50, 4);
        awaitStreams(0);
        int listenersBefore = events.listeners();
        double gaugeBefore = openStreamsGauge();
        long heapBefore = usedHeapAfterGc();
        long started = System.nanoTime();

        cycles(id, 1000, 8);
        // The first event was read on each: every one of them was a live subscriber before it was dropped.
        awaitStreams(0);
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertEquals(listenersBefore, events.listeners(),
                "job event listeners left behind by dropped streams"));
        assertEquals(gaugeBefore, openStreamsGauge(), "ferry_event_streams after 1000 dropped streams");
        assertEquals(0, limits.clients(), "clients still counted after all their streams were dropped");
        long growth = usedHeapAfterGc() - heapBefore;
        assertTrue(growth < 32L << 20, "used heap grew by " + (growth >> 20) + " MiB over 1000 dropped streams");
        System.out.printf("1000 dropped streams in %d ms; used heap %+d KiB%n", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started),
                growth >> 10);
    }

    @Test
    void streamsDroppedBeforeTheirFirstEventAreFreedAndLogNoErrors() throws Exception {
        String id = job();
        awaitStreams(0);
        int listenersBefore = events.listeners();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<LogRecord> errors = new CopyOnWriteArrayList<>();
        Handler errorLog = new Handler() {
            @Override
            public void publish(LogRecord r) {
                if (r.getLevel().intValue() >= Level.SEVERE.intValue()) {
                    errors.add(r);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger root = Logger.getLogger("");
        root.addHandler(errorLog);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                String token = token("dropper-" + SUBJECTS.incrementAndGet(), "atlas", "transfer:submit");
                done.add(pool.submit(() -> {
                    try (Socket s = openStream(id, token)) {
                        s.setSoLinger(true, 0);
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(30, TimeUnit.SECONDS);
            }
            awaitStreams(0);
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertEquals(listenersBefore, events.listeners()));
            // a client hanging up is not a failure of the service: it must not flood the log with errors
            assertEquals(0, errors.size(), () -> errors.size() + " errors logged, the first: " + errors.get(0).getLoggerName() + ": "
                    + errors.get(0).getMessage() + " " + errors.get(0).getThrown());
        } finally {
            root.removeHandler(errorLog);
            pool.shutdownNow();
        }
    }

    @Test
    void oneClientGetsSixteenStreamsAndA429BeyondUntilItClosesOne() throws Exception {
        String id = job();
        String token = token("greedy-" + SUBJECTS.incrementAndGet(), "atlas", "transfer:submit");
        List<Socket> open = new ArrayList<>();
        try {
            for (int i = 0; i < 16; i++) {
                open.add(openStreamAndReadFirstEvent(id, token));
            }
            given().auth().oauth2(token).accept("text/event-stream").get("/jobs/" + id + "/events").then().statusCode(429)
                    .contentType(PROBLEM).header("Retry-After", notNullValue()).body("code", equalTo("TOO_MANY_EVENT_STREAMS"))
                    .body("context.limit", equalTo("client")).body("context.max", equalTo(16));
            // another client of the same VO is not affected
            Socket other = openStreamAndReadFirstEvent(id, token("patient-" + SUBJECTS.incrementAndGet(), "atlas", "transfer:submit"));
            open.add(other);

            Socket dropped = open.remove(0);
            dropped.setSoLinger(true, 0);
            dropped.close();
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100)).until(() -> {
                try {
                    open.add(openStreamAndReadFirstEvent(id, token));
                    return true;
                } catch (AssertionError tooMany) {
                    return false;
                }
            });
        } finally {
            closeAll(open);
        }
        awaitStreams(0);
    }

    @Test
    void aReplicaHoldsAtMostItsLimitOfStreams() throws Exception {
        String id = job();
        int max = limits.maxPerReplica();
        List<Socket> open = new ArrayList<>();
        try {
            awaitStreams(0);
            for (int i = 0; i < max; i++) {
                // 8 clients' worth of streams per subject, well below the per-client limit
                open.add(openStreamAndReadFirstEvent(id, token("crowd-" + (i / 8) + "-" + SUBJECTS.get(), "atlas", "transfer:submit")));
            }
            given().auth().oauth2(token("latecomer-" + SUBJECTS.incrementAndGet(), "cms", "transfer:submit")).accept("text/event-stream")
                    .get("/jobs/" + id + "/events").then().statusCode(429).contentType(PROBLEM).header("Retry-After", notNullValue())
                    .body("code", equalTo("TOO_MANY_EVENT_STREAMS")).body("context.limit", equalTo("replica"));
        } finally {
            closeAll(open);
        }
        awaitStreams(0);
    }

    @Test
    void aSubscriberThatReadsNothingHoldsAtMostTheLimitOfEventsAndIsThenEnded() {
        int max = config.maxPendingEvents();
        UUID job = UUID.randomUUID();
        List<JobEvents.FileEvent> snapshot = new ArrayList<>();
        for (int i = 0; i <= max; i++) {
            snapshot.add(new JobEvents.FileEvent(job.toString(), i, FileState.SUBMITTED, JobState.SUBMITTED, null, "2026-01-01T00:00:00Z"));
        }
        int listenersBefore = events.listeners();
        AssertSubscriber<JobEvents.FileEvent> slow = events.follow(job, Uni.createFrom().item(new JobEvents.Snapshot(snapshot, CommittedBefore.parse("1:1:"))))
                .subscribe().withSubscriber(AssertSubscriber.create(0));
        assertEquals(listenersBefore + 1, events.listeners());
        // what it has not read is all it holds; once it reads, the stream ends there and its listener goes
        slow.request(Long.MAX_VALUE).awaitCompletion(Duration.ofSeconds(10));
        assertEquals(max, slow.getItems().size());
        assertEquals(listenersBefore, events.listeners());
    }

    @Test
    void aChangeTheSnapshotAlreadyHoldsDoesNotFollowIt() {
        UUID job = UUID.randomUUID();
        // Two changes of file 7 commit while the stream's snapshot is read, after its listener is in place: their
        // NOTIFYs reach the stream, but the snapshot (file 7 ACTIVE) already holds both. Sent after it, READY would
        // tell a watcher the file went back.
        Uni<JobEvents.Snapshot> snapshot = committedChange(job, 7, FileState.READY)
                .chain(() -> committedChange(job, 7, FileState.ACTIVE))
                .chain(() -> pool.query(JobEvents.CURRENT_SNAPSHOT).execute())
                .map(rows -> new JobEvents.Snapshot(List.of(fileEvent(job, 7, FileState.ACTIVE)),
                        CommittedBefore.parse(rows.iterator().next().getString(0))));
        AssertSubscriber<JobEvents.FileEvent> watcher = events.follow(job, snapshot)
                .subscribe().withSubscriber(AssertSubscriber.create(Long.MAX_VALUE));
        watcher.awaitItems(1, Duration.ofSeconds(10));
        committedChange(job, 7, FileState.FINISHED).await().atMost(Duration.ofSeconds(10));
        // NOTIFYs arrive in commit order: once FINISHED is here, READY and ACTIVE would have been too
        watcher.awaitItems(2, Duration.ofSeconds(10));
        assertEquals(List.of(FileState.ACTIVE, FileState.FINISHED),
                watcher.getItems().stream().map(JobEvents.FileEvent::file_state).toList());
        watcher.cancel();
    }

    private Uni<Void> committedChange(UUID job, long fileId, FileState state) {
        return pool.withTransaction(c -> events.publish(c, job, List.of(fileId), state, JobState.ACTIVE, null));
    }

    private static JobEvents.FileEvent fileEvent(UUID job, long fileId, FileState state) {
        return new JobEvents.FileEvent(job.toString(), fileId, state, JobState.ACTIVE, null, "2026-01-01T00:00:00Z");
    }

    // --- helpers ------------------------------------------------------------------------------------------

    static String token(String subject, String vo, String scope) {
        return FerryTestResource.token(DevTokens.Claims.of(subject, vo, scope));
    }

    /** One job of atlas with one file, submitted once per test JVM. */
    static synchronized String job() {
        if (jobId == null) {
            String admin = FerryTestResource.token(null, "transfer:admin");
            given().auth().oauth2(admin).contentType(ContentType.JSON)
                    .body("{\"site\":\"RAL-LCG2\",\"baseUrls\":{\"https\":\"https://ral.example/data\"},\"access\":{\"open\":true}}")
                    .put("/endpoints/RAL-DISK").then().statusCode(anyOf(equalTo(200), equalTo(201)));
            given().auth().oauth2(admin).contentType(ContentType.JSON)
                    .body("{\"site\":\"CERN-PROD\",\"baseUrls\":{\"https\":\"https://cern.example/eos\"},\"access\":{\"open\":true}}")
                    .put("/endpoints/CERN-DISK").then().statusCode(anyOf(equalTo(200), equalTo(201)));
            jobId = given().auth().oauth2(token("streamer", "atlas", "transfer:submit")).contentType(ContentType.JSON)
                    .body(JobApiTest.job("https://ral.example/data/streams/f1", "https://cern.example/eos/streams/f1", "{}"))
                    .post("/jobs").then().statusCode(200).extract().path("job_id");
        }
        return jobId;
    }

    /** {@code n} streams, {@code parallel} at a time, each from its own client: connect, read the first event, reset. */
    void cycles(String id, int n, int parallel) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(parallel);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                String token = token("cycler-" + SUBJECTS.incrementAndGet(), "atlas", "transfer:submit");
                done.add(pool.submit(() -> {
                    Socket s = openStreamAndReadFirstEvent(id, token);
                    s.setSoLinger(true, 0);
                    s.close();
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    Socket openStream(String id, String token) throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress(base.getHost(), base.getPort()), 5_000);
        s.setSoTimeout(15_000);
        OutputStream out = s.getOutputStream();
        out.write(("GET /jobs/" + id + "/events HTTP/1.1\r\nHost: " + base.getHost() + ":" + base.getPort() + "\r\n"
                + "Authorization: Bearer " + token + "\r\nAccept: text/event-stream\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return s;
    }

    /** A stream whose first event has arrived; the caller closes the socket. Anything but a 200 is an AssertionError. */
    Socket openStreamAndReadFirstEvent(String id, String token) throws IOException {
        Socket s = openStream(id, token);
        try {
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
            String status = in.readLine();
            if (status == null || !status.contains(" 200 ")) {
                throw new AssertionError("stream refused: " + status);
            }
            String line;
            do {
                line = in.readLine();
            } while (line != null && !line.startsWith("data:"));
            if (line == null || !line.contains(id)) {
                throw new AssertionError("the stream ended before the job's first event");
            }
            return s;
        } catch (IOException | AssertionError e) {
            s.close();
            throw e;
        }
    }

    static void closeAll(List<Socket> sockets) throws IOException {
        for (Socket s : sockets) {
            s.setSoLinger(true, 0);
            s.close();
        }
    }

    void awaitStreams(int expected) {
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
                .untilAsserted(() -> assertEquals(expected, openStreamsGauge(), "open event streams (ferry_event_streams)"));
    }

    static double openStreamsGauge() {
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        for (String line : metrics.split("\n")) {
            if (line.startsWith("ferry_event_streams ")) {
                return Double.parseDouble(line.substring("ferry_event_streams ".length()).trim());
            }
        }
        throw new AssertionError("no ferry_event_streams gauge on /q/metrics");
    }

    static long usedHeapAfterGc() throws InterruptedException {
        var heap = ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
        return heap.getHeapMemoryUsage().getUsed();
    }
}
