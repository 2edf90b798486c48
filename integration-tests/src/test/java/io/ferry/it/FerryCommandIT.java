package io.ferry.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ferry.dev.DevTokens;
import io.ferry.dev.NginxWebDav;
import io.ferry.stack.LocalStack;
import io.ferry.stack.ServiceSpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The {@code ferry} command as people run it: its jar as a real process against the packaged stack, moving real
 * files between two nginx SEs, and {@code ferry watch} in a real terminal (a tmux session of its own) whose screen
 * is read while the job moves and once it has ended.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FerryCommandIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern JOB_ID = Pattern.compile("^([0-9a-f-]{36})\\s", Pattern.MULTILINE);

    private LocalStack stack;
    private NginxWebDav nginx;
    private Path work;
    private String tmuxSocket;
    private String listJob;

    /** What a run of the command printed, and its exit status. */
    private record Run(int exit, String out, String err) {
    }

    @BeforeAll
    void start() throws Exception {
        stack = ItStacks.start("it-cli", Map.of());
        nginx = new NginxWebDav();
        work = Files.createDirectories(Path.of("target", "it-cli-work").toAbsolutePath());
        tmuxSocket = "ferry-it-" + ProcessHandle.current().pid();
        registerSe("CLI-SLOW", "/slow/cli");
        registerSe("CLI-DST", "/cli-b");
        Files.createDirectories(nginx.file("/cli-b"));
    }

    @AfterAll
    void stop() throws Exception {
        if (tmuxSocket != null) {
            new ProcessBuilder("tmux", "-L", tmuxSocket, "kill-server").redirectErrorStream(true).start().waitFor(10, TimeUnit.SECONDS);
        }
        if (stack != null) {
            stack.close();
        }
        if (nginx != null) {
            nginx.close();
        }
    }

    @Test
    @Order(1)
    void whoamiShowsSubjectVoScopesAndExpiry() throws Exception {
        Run table = ferry("whoami");
        assertEquals(0, table.exit(), table.err());
        assertTrue(table.out().contains("subject:") && table.out().contains("cli-user"), table.out());
        assertTrue(table.out().matches("(?s).*vo:\\s+atlas\\n.*"), table.out());
        assertTrue(table.out().contains("transfer:submit"), table.out());
        assertTrue(table.out().matches("(?s).*credential:\\s+\\$BEARER_TOKEN\\n.*"), table.out());
        assertTrue(table.out().matches("(?s).*expires:\\s+\\d{4}-.*\\(in 1[12]h.*"), table.out());

        JsonNode json = JSON.readTree(ferry("whoami", "-o", "json").out());
        assertEquals("atlas", json.get("vos").get(0).asText());
        assertTrue(json.get("roles").toString().contains("transfer"), json.toString());
    }

    @Test
    @Order(2)
    void whoamiWithAnX509ProxyGoesOverTheHttpsPort() throws Exception {
        Path proxy = stack.gridPki().writeProxy("atlas", List.of("/atlas/Role=production"), Duration.ofHours(2), work.resolve("x509up"));
        Map<String, String> env = new HashMap<>(environment());
        env.remove("BEARER_TOKEN");
        env.put("X509_USER_PROXY", proxy.toString());
        env.put("X509_CERT_DIR", stack.gridPki().certificates().toString());
        env.put("FERRY_SCHEDULER_HTTPS_URL", stack.schedulerHttpsUrl());
        Run run = run(env, null, "whoami", "-o", "json");
        assertEquals(0, run.exit(), run.err());
        JsonNode json = JSON.readTree(run.out());
        assertTrue(json.get("voms_cred").toString().contains("/atlas/Role=production"), run.out());
        assertTrue(json.get("credential").asText().startsWith("X.509 proxy"), run.out());
    }

    @Test
    @Order(3)
    void aListIsSubmittedAndWatchedInATerminalUntilItEnds() throws Exception {
        // four files that finish one after the other at the slow location's 256 KiB/s, and one that is not there
        int[] sizes = {300_000, 1_200_000, 2_400_000, 3_600_000};
        StringBuilder list = new StringBuilder("# four slow files and one that is not there\n");
        for (int i = 0; i < 4; i++) {
            byte[] data = new byte[sizes[i]];
            new java.util.Random(i).nextBytes(data);
            Path source = nginx.file("/slow/cli/f" + i);
            Files.createDirectories(source.getParent());
            Files.write(source, data);
            list.append(nginx.url("/slow/cli/f" + i)).append(' ').append(nginx.url("/cli-b/f" + i)).append(' ').append(data.length).append('\n');
        }
        list.append(nginx.url("/slow/cli/missing")).append(' ').append(nginx.url("/cli-b/missing")).append('\n');
        Path listFile = Files.writeString(work.resolve("list.txt"), list);

        Run dry = ferry("submit", "-f", listFile.toString(), "--dry-run", "--max-files-per-job", "2", "--scitag", "137", "-o", "json");
        assertEquals(0, dry.exit(), dry.err());
        JsonNode bodies = JSON.readTree(dry.out());
        assertEquals(3, bodies.size(), "five files at two per job are three jobs");
        assertEquals(1, bodies.get(2).get("files").size());
        assertEquals(137, bodies.get(2).get("files").get(0).get("scitag").asInt(), "--scitag labels each file");

        Run submitted = ferry("submit", "-f", listFile.toString(), "--retry", "0", "--activity", "CLI test");
        assertEquals(0, submitted.exit(), submitted.err());
        Matcher m = JOB_ID.matcher(submitted.out());
        assertTrue(m.find(), submitted.out());
        listJob = m.group(1);
        assertTrue(submitted.out().contains("(5 files)"), submitted.out());

        Path script = Files.writeString(work.resolve("watch.sh"), exports(environment()) + "\"$@\"; echo \"EXIT=$?\"; sleep 600\n");
        List<String> watch = new ArrayList<>(List.of("tmux", "-L", tmuxSocket, "new-session", "-d", "-x", "120", "-y", "30", "-s", "watch",
                "sh", script.toString()));
        watch.addAll(command("watch", listJob));
        assertEquals(0, new ProcessBuilder(watch).redirectErrorStream(true).start().waitFor());

        String moving = null;
        String screen = "";
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!screen.contains("EXIT=") && System.nanoTime() < deadline) {
            screen = capture();
            if (moving == null && screen.contains("job " + listJob + "  ACTIVE") && screen.contains(" ACTIVE ") && screen.contains("ETA")) {
                moving = screen;
            }
            Thread.sleep(200);
        }
        assertTrue(screen.contains("EXIT="), "the watch ended within two minutes:\n" + screen);
        assertTrue(moving != null, "the screen showed the job moving, with an ETA, before it ended:\n" + screen);
        assertTrue(moving.matches("(?s).*\\[#*\\.+\\] +\\d+%.*"), "a progress bar while it moves:\n" + moving);
        assertTrue(moving.contains("/ 7.15 MiB"), "bytes done of the total while it moves:\n" + moving);

        assertTrue(screen.contains("EXIT=1"), "a failed file makes the exit status 1:\n" + screen);
        assertTrue(screen.contains("job " + listJob + "  FINISHEDDIRTY"), screen);
        assertTrue(screen.contains("4 FINISHED  1 FAILED   (4/5 done)"), screen);
        assertTrue(screen.contains("7.15 MiB / 7.15 MiB") && screen.contains("100%"), screen);
        assertTrue(Pattern.compile("FAILED  job " + listJob + " file \\d+  " + Pattern.quote(nginx.url("/slow/cli/missing"))
                + " -> " + Pattern.quote(nginx.url("/cli-b/missing")) + "  \\[[A-Z_]+\\] \\S").matcher(screen).find(),
                "the failure with its error code and reason:\n" + screen);
        assertEquals(1, occurrences(screen, "job " + listJob + "  "), "the display is redrawn in place, not repeated:\n" + screen);
        for (int i = 0; i < 4; i++) {
            assertTrue(java.util.Arrays.equals(Files.readAllBytes(nginx.file("/slow/cli/f" + i)), Files.readAllBytes(nginx.file("/cli-b/f" + i))));
        }

        Run plain = ferry("watch", listJob);
        assertEquals(1, plain.exit(), plain.out() + plain.err());
        assertFalse(plain.out().contains("\033["), "no terminal codes when stdout is not a terminal");
        assertTrue(plain.out().strip().lines().reduce((a, b) -> b).orElse("").startsWith("job " + listJob + " FINISHEDDIRTY: 4 FINISHED  1 FAILED;"), plain.out());
    }

    @Test
    @Order(4)
    void statusAndLsShowTheJobForPeopleAndScripts() throws Exception {
        Run table = ferry("status", listJob);
        assertEquals(0, table.exit(), table.err());
        assertTrue(table.out().contains("state:") && table.out().contains("FINISHEDDIRTY"), table.out());
        assertTrue(table.out().contains("FILE  STATE"), table.out());
        assertTrue(table.out().contains("1.14 MiB"), table.out());

        JsonNode json = JSON.readTree(ferry("status", listJob, "-o", "json").out());
        assertEquals(listJob, json.get("job").get("job_id").asText());
        assertEquals(5, json.get("files").size());
        assertEquals("CLI test", json.get("files").get(0).get("activity").asText());

        JsonNode listed = JSON.readTree(ferry("ls", "--state", "FINISHEDDIRTY", "--since", "1h", "-o", "json").out());
        assertTrue(listed.toString().contains(listJob), listed.toString());
        JsonNode recent = JSON.readTree(ferry("ls", "--since", "1h", "-o", "json").out());
        assertTrue(recent.toString().contains(listJob), "--since alone lists jobs that finished since: " + recent);
        assertFalse(JSON.readTree(ferry("ls", "-o", "json").out()).toString().contains(listJob), "unfinished jobs only by default");
        Run linked = ferry("ls", "--state", "finisheddirty", "--link", "CLI-SLOW:CLI-DST", "-o", "tsv");
        assertEquals(0, linked.exit(), linked.err());
        assertTrue(linked.out().startsWith("JOB\tSTATE\t") && linked.out().contains(listJob + "\tFINISHEDDIRTY\t"), linked.out());
        assertTrue(JSON.readTree(ferry("ls", "--state", "FINISHEDDIRTY", "--link", "CLI-DST:CLI-SLOW", "-o", "json").out()).isEmpty());

        Run retried = ferry("resubmit", "--failed", listJob, "--dry-run", "-o", "json");
        assertEquals(1, JSON.readTree(retried.out()).get("files").size(), retried.out());

        long failedFile = -1;
        for (JsonNode f : json.get("files")) {
            failedFile = f.get("file_state").asText().equals("FAILED") ? f.get("file_id").asLong() : failedFile;
        }
        Run retries = ferry("retries", listJob, Long.toString(failedFile), "-o", "json");
        assertEquals(0, retries.exit(), retries.err());
        assertTrue(JSON.readTree(retries.out()).isArray(), retries.out());

        Run cost = ferry("cost", "CLI-SLOW", "CLI-DST", "--size", "10MB", "-o", "json");
        assertEquals(0, cost.exit(), cost.err());
        JsonNode cell = JSON.readTree(cost.out()).get("cells").get(0);
        assertEquals("CLI-SLOW", cell.get("from").asText(), cost.out());
        assertEquals(10_000_000, JSON.readTree(cost.out()).get("filesize").asLong(), cost.out());
        assertTrue(ferry("cost", "CLI-SLOW", "CLI-DST", "--size", "10MB").out().startsWith("FROM      TO       SECONDS"), "a table for people");
    }

    @Test
    @Order(5)
    void aJobIsCanceled() throws Exception {
        Path big = nginx.file("/slow/cli/big");
        Files.write(big, new byte[8 << 20]);
        Run submitted = ferry("submit", nginx.url("/slow/cli/big"), nginx.url("/cli-b/big"), "-o", "json");
        assertEquals(0, submitted.exit(), submitted.err());
        String id = JSON.readTree(submitted.out()).get(0).get("job_id").asText();
        Run canceled = ferry("cancel", id, "-o", "json");
        assertEquals(0, canceled.exit(), canceled.err());
        assertEquals("CANCELED", JSON.readTree(canceled.out()).get(0).get("job_state").asText(), canceled.out());
        Run watched = ferry("watch", id);
        assertEquals(1, watched.exit(), "a canceled file is not a success: " + watched.out());
        assertTrue(watched.out().contains("CANCELED"), watched.out());
    }

    @Test
    @Order(6)
    void aRefusalIsOneReadableLineAndANonZeroExit() throws Exception {
        Run refused = ferry("submit", nginx.url("/slow/cli/f0"), nginx.url("/cli-b/again"), "--priority", "9");
        assertEquals(1, refused.exit(), refused.out());
        assertEquals("ferry submit: 400 INVALID_JOB: 1 problem(s) with the submission; nothing was stored [params.priority: a whole number from 1 to 5]",
                refused.err().strip());

        Run local = ferry("submit", "a", "b", "--checksum", "md5:00");
        assertEquals(2, local.exit());
        assertEquals("ferry submit: 'md5:00' is no checksum: expected adler32:xxxxxxxx or md5:<32 hex digits>", local.err().strip());
        Run label = ferry("submit", "a", "b", "--scitag", "64");
        assertEquals(2, label.exit());
        assertEquals("ferry submit: --scitag 64 is no SciTag: expected 65 to 65535", label.err().strip());

        Run unknown = ferry("status", "00000000-0000-0000-0000-000000000000");
        assertEquals(1, unknown.exit());
        assertEquals(1, unknown.err().strip().lines().count(), unknown.err());
        assertTrue(unknown.err().startsWith("ferry status: 404"), unknown.err());

        Map<String, String> noToken = new HashMap<>(environment());
        noToken.remove("BEARER_TOKEN");
        noToken.put("BEARER_TOKEN_FILE", work.resolve("absent").toString());
        Run missing = run(noToken, null, "whoami");
        assertEquals(2, missing.exit());
        assertTrue(missing.err().startsWith("ferry whoami: BEARER_TOKEN_FILE names "), missing.err());

        Run typo = ferry("sumbit");
        assertEquals(2, typo.exit());
        assertTrue(typo.err().contains("Unmatched argument") && typo.err().contains("submit"), typo.err());
    }

    @Test
    @Order(7)
    void helpHasExamplesAndCompletionIsABashScript() throws Exception {
        Run help = ferry("submit", "--help");
        assertEquals(0, help.exit());
        assertTrue(help.out().contains("Examples:") && help.out().contains("ferry submit -f list.txt"), help.out());
        Run completion = ferry("completion", "bash");
        assertEquals(0, completion.exit());
        assertTrue(completion.out().contains("complete -F") && completion.out().contains("watch"), completion.out());
    }

    @Test
    @Order(8)
    void altoPublishesTheLinkTheJobMeasuredByPid() throws Exception {
        // the list job's four slow files are the link's samples, once the scheduler's records reach the aggregator
        Run[] costs = new Run[1];
        Eventually.until(Duration.ofSeconds(60), () -> {
            costs[0] = ferry("alto", "costs", "--from", "CLI-SLOW", "--to", "CLI-DST", "-o", "tsv");
            return costs[0].exit() == 0 && costs[0].out().contains("CLI-SLOW\tCLI-DST\t");
        }, "a routing cost for CLI-SLOW -> CLI-DST: " + (costs[0] == null ? "" : costs[0].out() + costs[0].err()));
        String[] cell = costs[0].out().lines().filter(l -> l.startsWith("CLI-SLOW\t")).findFirst().orElseThrow().split("\t");
        double seconds = Double.parseDouble(cell[2]);
        // 1 GB at the slow location's 256 KiB/s is over an hour; the cost is that file's time, not a default
        assertTrue(seconds > 3_000 && seconds < 10_000, costs[0].out());

        Run throughput = ferry("alto", "costs", "--from", "CLI-SLOW", "--metric", "throughput", "-o", "json");
        assertEquals(0, throughput.exit(), throughput.err());
        JsonNode map = JSON.readTree(throughput.out());
        assertEquals("priv:ferry-throughput", map.path("meta").path("cost-type").path("cost-metric").asText(), throughput.out());
        double rate = map.path("cost-map").path("CLI-SLOW").path("CLI-DST").asDouble();
        assertTrue(rate > 100_000 && rate < 400_000, "about 256 KiB/s: " + throughput.out());

        Run table = ferry("alto", "costs", "--from", "CLI-SLOW", "--to", "CLI-DST");
        assertTrue(table.out().startsWith("FROM") && table.out().contains("ROUTINGCOST") && table.out().matches("(?s).*CLI-SLOW +CLI-DST +1h\\d\\dm.*"),
                "people read the cost as a duration: " + table.out());
        Run none = ferry("alto", "costs", "--from", "CLI-SLOW", "--where", "lt 1");
        assertTrue(none.out().contains("no measured costs between these SEs"), "a constraint no link meets: " + none.out());

        Run networkMap = ferry("alto", "map");
        assertEquals(0, networkMap.exit(), networkMap.err());
        assertTrue(networkMap.out().matches("(?s)PID +SE\n.*CLI-DST +CLI-DST\n.*CLI-SLOW +CLI-SLOW\n.*vtag [0-9a-f]{64}\n"), networkMap.out());
        Run directory = ferry("alto", "directory", "-o", "tsv");
        assertTrue(directory.out().contains("ferry-filtered-cost-map\tapplication/alto-costmap+json\tapplication/alto-costmapfilter+json\t"), directory.out());

        Run refused = ferry("alto", "costs", "--where", "about 5");
        assertEquals(1, refused.exit(), refused.out());
        assertEquals("ferry alto costs: 400 E_INVALID_FIELD_VALUE: field constraints, value about 5", refused.err().strip());
    }

    @Test
    @Order(9)
    void anAdminLetsAVoNameWebhooksAndTheVoSeesItsJobsEvents() throws Exception {
        Map<String, String> admin = new HashMap<>(environment());
        admin.put("BEARER_TOKEN", stack.tokens().mint(DevTokens.Claims.of("it-admin", null, "transfer:admin")));
        Run forbidden = ferry("webhook", "put-hosts", "atlas", "hooks.atlas.example.org");
        assertEquals(1, forbidden.exit(), forbidden.out());
        assertTrue(forbidden.err().startsWith("ferry webhook put-hosts: 403"), forbidden.err());
        Run address = run(admin, null, "webhook", "put-hosts", "atlas", "10.0.0.1");
        assertEquals(1, address.exit(), address.out());
        assertTrue(address.err().contains("allowed_hosts[0]"), address.err());
        Run empty = run(admin, null, "webhook", "put-hosts", "atlas");
        assertEquals(2, empty.exit());
        assertEquals("ferry webhook put-hosts: name the hosts, or --none to allow none", empty.err().strip());

        Run put = run(admin, null, "webhook", "put-hosts", "atlas", "hooks.atlas.example.org", "*.cern.ch");
        assertEquals(0, put.exit(), put.err());
        assertTrue(put.out().matches("(?s).*ALLOWED HOSTS: +hooks.atlas.example.org, \\*.cern.ch\n.*"), put.out());
        Run secret = run(admin, null, "webhook", "new-secret", "atlas");
        assertEquals(0, secret.exit(), secret.err());
        assertTrue(secret.out().strip().length() >= 32 && secret.out().strip().lines().count() == 1, "the secret alone on stdout: " + secret.out());
        assertTrue(secret.err().contains("shown this once"), secret.err());
        Run shown = run(admin, null, "webhook", "show", "atlas", "-o", "json");
        assertTrue(JSON.readTree(shown.out()).get("has_secret").asBoolean(), shown.out());
        assertFalse(shown.out().contains(secret.out().strip()), "the secret is never shown again");

        Run elsewhere = ferry("submit", nginx.url("/slow/cli/missing"), nginx.url("/cli-b/hooked"), "--webhook", "https://hooks.other.example.net/ferry");
        assertEquals(1, elsewhere.exit(), elsewhere.out());
        assertTrue(elsewhere.err().contains("params.webhook"), "a host the VO was not allowed: " + elsewhere.err());
        Run submitted = ferry("submit", nginx.url("/slow/cli/missing"), nginx.url("/cli-b/hooked"), "--retry", "0",
                "--webhook", "https://hooks.atlas.example.org/ferry", "--webhook-file-failures", "--sync", "size", "--max-rate", "50MB/s", "-o", "json");
        assertEquals(0, submitted.exit(), submitted.err());
        String id = JSON.readTree(submitted.out()).get(0).get("job_id").asText();
        Run[] events = new Run[1];
        Eventually.until(Duration.ofSeconds(60), () -> {
            events[0] = ferry("webhook", "events", id, "-o", "tsv");
            return events[0].out().contains("\tjob.finished\t") && events[0].out().contains("\tfile.failed\t");
        }, "a job.finished and a file.failed event: " + (events[0] == null ? "" : events[0].out() + events[0].err()));
        assertTrue(events[0].out().startsWith("EVENT\tKIND\tSTATUS\tATTEMPTS\t"), events[0].out());

        Run status = ferry("status", id);
        assertTrue(status.out().matches("(?s).*sync level: +size\n.*max rate: +50\\.0 MB/s\n.*"), status.out());
        Run again = ferry("resubmit", "--failed", id, "--dry-run", "-o", "json");
        JsonNode params = JSON.readTree(again.out()).get("params");
        assertEquals("size", params.path("sync_level").asText(), "the sync level is carried over: " + again.out());
        assertEquals(50_000_000, params.path("max_rate").asLong(), "the rate cap is carried over: " + again.out());

        Map<String, String> cms = new HashMap<>(environment());
        cms.put("BEARER_TOKEN", stack.tokens().mint(DevTokens.Claims.of("cms-user", "cms", "transfer:read transfer:submit")));
        Run foreign = run(cms, null, "webhook", "events", id);
        assertEquals(1, foreign.exit(), foreign.out());
        assertTrue(foreign.err().startsWith("ferry webhook events: 404"), "another VO's job is not found: " + foreign.err());
    }

    // ---- helpers

    private String token() {
        return stack.tokens().mint(DevTokens.Claims.of("cli-user", "atlas", "transfer:read transfer:submit").withSite("RAL-LCG2"));
    }

    private Map<String, String> environment() {
        Map<String, String> env = new HashMap<>();
        env.put("BEARER_TOKEN", token());
        env.put("FERRY_SCHEDULER_URL", stack.service(ServiceSpec.SCHEDULER).url());
        env.put("FERRY_RESOLVER_URL", stack.service(ServiceSpec.RESOLVER).url());
        env.put("FERRY_AGGREGATOR_URL", stack.service(ServiceSpec.AGGREGATOR).url());
        env.put("FERRY_CONFIG", work.resolve("no-config.toml").toString());
        return env;
    }

    private Run ferry(String... args) throws Exception {
        return run(environment(), null, args);
    }

    /** The CLI's jar as a process, its stdout a pipe (not a terminal). */
    private Run run(Map<String, String> env, String stdin, String... args) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command(args));
        pb.environment().keySet().removeIf(k -> k.startsWith("BEARER_TOKEN") || k.startsWith("X509_") || k.startsWith("FERRY_"));
        pb.environment().putAll(env);
        Process p = pb.start();
        if (stdin != null) {
            p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
        }
        p.getOutputStream().close();
        var out = java.util.concurrent.CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
        var err = java.util.concurrent.CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("ferry " + String.join(" ", args) + " did not end within 120 s");
        }
        return new Run(p.exitValue(), out.get(), err.get());
    }

    private static List<String> command(String... args) throws IOException {
        List<String> c = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", cliJar().toString()));
        c.addAll(List.of(args));
        return c;
    }

    private static Path cliJar() throws IOException {
        try (Stream<Path> jars = Files.list(LocalStack.projectRoot().resolve("services/cli/target"))) {
            return jars.filter(j -> j.getFileName().toString().matches("ferry-cli-.*\\.jar")).findFirst()
                    .orElseThrow(() -> new IllegalStateException("services/cli is not packaged"));
        }
    }

    private static String read(java.io.InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String exports(Map<String, String> env) {
        StringBuilder b = new StringBuilder();
        env.forEach((k, v) -> b.append("export ").append(k).append("='").append(v.replace("'", "'\\''")).append("'\n"));
        return b.toString();
    }

    /** The pane's text, lines that the terminal wrapped joined again (-J). */
    private String capture() throws Exception {
        Process p = new ProcessBuilder("tmux", "-L", tmuxSocket, "capture-pane", "-p", "-J", "-t", "watch").redirectErrorStream(true).start();
        String screen = read(p.getInputStream());
        p.waitFor(10, TimeUnit.SECONDS);
        return screen;
    }

    private static int occurrences(String s, String part) {
        int n = 0;
        for (int i = s.indexOf(part); i >= 0; i = s.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }

    /** Registers an SE as an administrator does it, with {@code ferry se put}, and reads it back with {@code ferry se get}. */
    private void registerSe(String name, String path) throws Exception {
        Map<String, String> admin = new HashMap<>(environment());
        admin.put("BEARER_TOKEN", stack.tokens().mint(DevTokens.Claims.of("it-admin", null, "transfer:admin")));
        String se = "{\"site\":\"" + name + "-SITE\",\"baseUrls\":{\"http\":\"" + nginx.url(path)
                + "\"},\"access\":{\"rules\":[{\"vo\":\"atlas\",\"read\":true,\"write\":true}]}}";
        Run put = run(admin, null, "se", "put", name, "--json", se);
        assertEquals(0, put.exit(), put.err());
        Run get = run(admin, null, "se", "get", name, "-o", "json");
        assertEquals(0, get.exit(), get.err());
        assertEquals(name + "-SITE", JSON.readTree(get.out()).path("site").asText(), get.out());
    }
}
