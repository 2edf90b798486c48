package io.ferry.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ferry.dev.DevTokens;
import io.ferry.dev.NginxWebDav;
import io.ferry.stack.LocalStack;
import io.ferry.stack.ServiceProcess;
import io.ferry.stack.ServiceSpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Recovery as an operator meets it, with the packaged scheduler as a real process: a job of rate-limited files (nginx's
 * /slow/ sends 256 KiB/s per connection, so each copy takes seconds) runs once undisturbed, once with the scheduler
 * killed (-9) and restarted at once, once with it stopped by SIGTERM and restarted. The lease stays at its default
 * of 60 s: recovery within seconds comes from the heartbeat and the drain, not from the lease.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RecoveryIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration LEASE = Duration.ofSeconds(60);
    private static final Duration DRAIN_GRACE = Duration.ofSeconds(6);
    /** Two copies that cannot finish within the drain grace, one that can (12 s, 12 s and 4 s at 256 KiB/s). */
    private static final int[] SIZES = {3 << 20, 3 << 20, 1 << 20};

    private LocalStack stack;
    private NginxWebDav nginx;
    private Duration undisturbed;
    /** The replica the test talks to. */
    private ServiceProcess api;

    @BeforeAll
    void startStack() throws Exception {
        // room for all three copies at once on the link from its first pass
        stack = ItStacks.start("it-recovery", Map.of("FERRY_SCHEDULER_ENGINE_DEFAULT_MIN_ACTIVE", "4",
                "FERRY_SCHEDULER_ENGINE_DRAIN_GRACE", DRAIN_GRACE.toSeconds() + "s", "FERRY_SCHEDULER_ENGINE_LEASE", LEASE.toSeconds() + "s"));
        api = stack.service(ServiceSpec.SCHEDULER);
        nginx = new NginxWebDav();
        for (String[] se : new String[][]{{"REC-SLOW", "/slow"}, {"REC-DST", "/se-b"}}) {
            HttpResponse<String> r = send("PUT", "/endpoints/" + se[0], token(null, "transfer:admin"), "{\"site\":\"" + se[0]
                    + "-SITE\",\"baseUrls\":{\"http\":\"" + nginx.url(se[1]) + "\"},\"access\":{\"open\":true}}");
            assertTrue(r.statusCode() == 200 || r.statusCode() == 201, r.body());
        }
    }

    @AfterAll
    void stopStack() throws Exception {
        if (stack != null) {
            stack.close();
        }
        if (nginx != null) {
            nginx.close();
        }
    }

    @Test
    @Order(1)
    void anUndisturbedRunSetsTheBaseline() throws Exception {
        Job job = submit("calm");
        awaitFinished(job, Duration.ofSeconds(60));
        undisturbed = job.wall();
        job.assertArrived();
        System.out.printf("recovery baseline: undisturbed job of %d files in %d ms%n", SIZES.length, undisturbed.toMillis());
    }

    @Test
    @Order(2)
    void aSchedulerKilledMidJobAndRestartedAtOnceRestartsTheCopiesWithinSeconds() throws Exception {
        Job job = submit("killed");
        awaitAllActive(job);
        Thread.sleep(3000);
        ServiceProcess scheduler = stack.service(ServiceSpec.SCHEDULER);
        Instant killed = Instant.now();
        scheduler.kill();
        scheduler.start();
        scheduler.awaitReady(Duration.ofMinutes(2));
        Instant ready = Instant.now();
        awaitFinished(job, Duration.ofSeconds(90));
        job.assertArrived();

        Instant restarted = Instant.EPOCH;
        for (JsonNode f : files(job)) {
            Instant start = startedBy(f);
            restarted = start.isAfter(restarted) ? start : restarted;
            JsonNode retries = get("/jobs/" + job.id + "/files/" + f.get("file_id").asText() + "/retries", job.vo);
            assertEquals(1, retries.size(), "the killed attempt is in the history: " + retries);
            assertEquals("LEASE_EXPIRED", retries.get(0).get("error_code").asText());
            assertTrue(retries.get(0).get("reason").asText().contains("stopped beating"), "taken back by the heartbeat, not the lease: " + retries);
        }
        Duration killToStart = Duration.between(killed, restarted);
        Duration readyToStart = Duration.between(ready, restarted);
        Duration growth = job.wall().minus(undisturbed);
        System.out.printf("recovery kill -9: restart ready %d ms after the kill, copies started again %d ms after the kill (%d ms after ready); "
                        + "job %d ms against %d ms undisturbed (+%d ms)%n", Duration.between(killed, ready).toMillis(), killToStart.toMillis(),
                readyToStart.toMillis(), job.wall().toMillis(), undisturbed.toMillis(), growth.toMillis());
        assertTrue(readyToStart.compareTo(Duration.ofSeconds(10)) < 0, "the restarted replica started the copies within 10 s: " + readyToStart);
        assertTrue(killToStart.compareTo(LEASE.dividedBy(2)) < 0, "requeued well within the lease: " + killToStart);
        assertTrue(growth.compareTo(LEASE.dividedBy(2)) < 0, "the job took seconds longer, not a lease: +" + growth);
    }

    @Test
    @Order(3)
    void aSchedulerStoppedMidJobFinishesWhatIsCloseToDoneAndHandsTheRestBackUncounted() throws Exception {
        Job job = submit("stopped");
        awaitAllActive(job);
        Thread.sleep(2500);
        ServiceProcess scheduler = stack.service(ServiceSpec.SCHEDULER);
        Instant stopping = Instant.now();
        scheduler.stop(DRAIN_GRACE.plusSeconds(30));
        Duration exit = Duration.between(stopping, Instant.now());
        System.out.printf("recovery SIGTERM: the scheduler exited %d ms after SIGTERM (drain grace %d s)%n", exit.toMillis(), DRAIN_GRACE.toSeconds());
        assertTrue(exit.compareTo(DRAIN_GRACE.plusSeconds(3)) < 0, "exited within the drain grace: " + exit + "\n" + scheduler.tail(30));

        // while no scheduler runs: the small file finished within the grace, the others wait in the queue as if never started
        List<String> states = new ArrayList<>();
        try (Connection c = schedulerDatabase();
             var q = c.prepareStatement("SELECT state, attempts, lease_owner IS NULL FROM transfer_file WHERE job_id = ?::uuid ORDER BY file_index")) {
            q.setString(1, job.id);
            try (ResultSet r = q.executeQuery()) {
                while (r.next()) {
                    states.add(r.getString(1) + "/" + r.getInt(2) + "/" + (r.getBoolean(3) ? "unclaimed" : "claimed"));
                }
            }
        }
        assertEquals(List.of("SUBMITTED/0/unclaimed", "SUBMITTED/0/unclaimed", "FINISHED/1/unclaimed"), states, scheduler.tail(30));

        scheduler.start();
        scheduler.awaitReady(Duration.ofMinutes(2));
        awaitFinished(job, Duration.ofSeconds(90));
        job.assertArrived();
        for (JsonNode f : files(job)) {
            assertEquals(0, f.get("retry").asInt(), "the handed-back attempt was not counted: " + f);
            assertEquals(0, get("/jobs/" + job.id + "/files/" + f.get("file_id").asText() + "/retries", job.vo).size(), "no retry used: " + f);
        }
        Duration growth = job.wall().minus(undisturbed);
        System.out.printf("recovery SIGTERM: job %d ms against %d ms undisturbed (+%d ms, the restart included)%n", job.wall().toMillis(),
                undisturbed.toMillis(), growth.toMillis());
        assertTrue(growth.compareTo(LEASE.dividedBy(2)) < 0, "the job took seconds longer, not a lease: +" + growth);
    }

    @Test
    @Order(4)
    void withASecondReplicaRunningAKilledReplicasCopiesRestartWithinTheHeartbeatTimeout() throws Exception {
        ServiceProcess first = stack.service(ServiceSpec.SCHEDULER);
        ServiceProcess second = stack.startReplica(ServiceSpec.SCHEDULER, Duration.ofMinutes(3));
        Job job = submit("survived");
        awaitAllActive(job);
        Thread.sleep(2000);
        ServiceProcess holder = holderOfMostCopies(job, first, second);
        api = holder == first ? second : first;
        Instant killed = Instant.now();
        holder.kill();
        awaitFinished(job, Duration.ofSeconds(60));
        job.assertArrived();
        Duration killToStart = Duration.ZERO;
        int interrupted = 0;
        for (JsonNode f : files(job)) {
            if (get("/jobs/" + job.id + "/files/" + f.get("file_id").asText() + "/retries", job.vo).size() > 0) {
                interrupted++;
                Duration d = Duration.between(killed, startedBy(f));
                killToStart = d.compareTo(killToStart) > 0 ? d : killToStart;
            }
        }
        Duration growth = job.wall().minus(undisturbed);
        System.out.printf("recovery kill -9 of one of two replicas: %d interrupted copies started again by the other %d ms after the kill; "
                + "job %d ms against %d ms undisturbed (+%d ms)%n", interrupted, killToStart.toMillis(), job.wall().toMillis(), undisturbed.toMillis(),
                growth.toMillis());
        assertTrue(interrupted > 0, "the killed replica held copies");
        assertTrue(killToStart.compareTo(Duration.ofSeconds(10)) < 0, "restarted within 10 s of the kill: " + killToStart);
    }

    /** The replica whose process id most of the job's ACTIVE files carry in their claim (name/pid/incarnation). */
    private ServiceProcess holderOfMostCopies(Job job, ServiceProcess... replicas) throws Exception {
        Map<Long, Integer> copies = new java.util.HashMap<>();
        try (Connection c = schedulerDatabase();
             var q = c.prepareStatement("SELECT lease_owner FROM transfer_file WHERE job_id = ?::uuid AND state = 'ACTIVE'")) {
            q.setString(1, job.id);
            try (ResultSet r = q.executeQuery()) {
                while (r.next()) {
                    String[] parts = r.getString(1).split("/");
                    copies.merge(Long.parseLong(parts[parts.length - 2]), 1, Integer::sum);
                }
            }
        }
        return Arrays.stream(replicas).max(java.util.Comparator.comparing(p -> copies.getOrDefault(p.pid(), 0))).orElseThrow();
    }

    /** One submitted job: its files' contents, where they go, when it was submitted and when it was seen FINISHED. */
    private final class Job {
        final String id;
        final String vo;
        final String name;
        final List<byte[]> data;
        final Instant submitted;
        Instant finished;

        Job(String id, String vo, String name, List<byte[]> data, Instant submitted) {
            this.id = id;
            this.vo = vo;
            this.name = name;
            this.data = data;
            this.submitted = submitted;
        }

        Duration wall() {
            return Duration.between(submitted, finished);
        }

        void assertArrived() throws Exception {
            for (int i = 0; i < data.size(); i++) {
                assertArrayEquals(data.get(i), Files.readAllBytes(nginx.file("/se-b/" + name + "/f" + i)), name + "/f" + i + " differs");
            }
            try (var listing = Files.list(nginx.file("/se-b/" + name))) {
                assertEquals(data.size(), listing.count(), "only the files, no partial or temporary one");
            }
        }
    }

    private Job submit(String name) throws Exception {
        List<byte[]> data = new ArrayList<>();
        StringBuilder files = new StringBuilder();
        for (int i = 0; i < SIZES.length; i++) {
            byte[] bytes = new byte[SIZES[i]];
            new Random(name.hashCode() + i).nextBytes(bytes);
            Path source = nginx.file("/slow/" + name + "/f" + i);
            Files.createDirectories(source.getParent());
            Files.write(source, bytes);
            data.add(bytes);
            files.append(i == 0 ? "" : ",").append("{\"sources\":[\"").append(nginx.url("/slow/" + name + "/f" + i))
                    .append("\"],\"destinations\":[\"").append(nginx.url("/se-b/" + name + "/f" + i)).append("\"]}");
        }
        Instant submitted = Instant.now();
        // one stream per copy: nginx limits each connection, so more streams would make the copies faster than planned
        HttpResponse<String> r = send("POST", "/jobs", token("cms", "transfer:submit"), "{\"files\":[" + files + "],\"params\":{\"nostreams\":1}}");
        assertEquals(200, r.statusCode(), r.body());
        return new Job(JSON.readTree(r.body()).get("job_id").asText(), "cms", name, data, submitted);
    }

    private void awaitAllActive(Job job) throws Exception {
        Eventually.until(Duration.ofSeconds(30), () -> {
            JsonNode files = files(job);
            for (JsonNode f : files) {
                if (!f.get("file_state").asText().equals("ACTIVE")) {
                    return false;
                }
            }
            return files.size() == SIZES.length;
        }, "all files of " + job.name + " ACTIVE");
    }

    private void awaitFinished(Job job, Duration within) throws Exception {
        Eventually.until(within, () -> get("/jobs/" + job.id, job.vo).path("job_state").asText().equals("FINISHED"), "job " + job.name + " FINISHED");
        job.finished = Instant.now();
    }

    private JsonNode files(Job job) throws Exception {
        return get("/jobs/" + job.id + "/files", job.vo);
    }


    /** The scheduler's database as its admin: to see the queue while no scheduler runs. */
    private Connection schedulerDatabase() throws Exception {
        return DriverManager.getConnection(stack.postgres().jdbcUrl(ServiceSpec.SCHEDULER.database()), stack.postgres().user(),
                stack.postgres().password());
    }

    private String token(String vo, String scope) {
        return stack.tokens().mint(DevTokens.Claims.of("it-user", vo, scope));
    }

    private JsonNode get(String path, String vo) throws Exception {
        HttpResponse<String> r = send("GET", path, token(vo, "transfer:submit"), null);
        assertEquals(200, r.statusCode(), r.body());
        return JSON.readTree(r.body());
    }

    private HttpResponse<String> send(String method, String path, String token, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(api.url() + path)).timeout(Duration.ofSeconds(20))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/json").header("Authorization", "Bearer " + token);
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /**
     * The latest instant a file's copy can have started: FTS3's times are whole UTC seconds, so the end of the second
     * it names (the delays measured from it are then never shorter than they were).
     */
    private static Instant startedBy(JsonNode file) {
        return LocalDateTime.parse(file.get("start_time").asText()).toInstant(ZoneOffset.UTC).plusMillis(999);
    }
}
