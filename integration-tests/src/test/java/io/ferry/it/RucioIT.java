package io.ferry.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ferry.dev.DevTokens;
import io.ferry.dev.FreePort;
import io.ferry.dev.NginxWebDav;
import io.ferry.dev.PostgresServer;
import io.ferry.dev.TapeRestServer;
import io.ferry.dev.testca.TestTokenIssuer;
import io.ferry.stack.LocalStack;
import io.ferry.stack.ServiceSpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.URLEncoder;
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
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Rucio moving data through Ferry: a real Rucio 41 from PyPI ({@link RucioDeployment}) whose RSEs name Ferry's
 * FTS3-compatible HTTPS port as their FTS3 host, its own daemons (conveyor submitter, receiver, poller, finisher,
 * judge cleaner) and its unmodified FTS3 transfertool, submitting with an X.509 proxy with VOMS attributes (delegated
 * first, as sites' cron jobs do: Rucio never delegates); Ferry's completion messages reach the receiver through a real
 * STOMP broker; the files move between nginx WebDAV SEs. Each test creates its own datasets and rules.
 */
class RucioIT {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String SCOPE = "ferry";
    static final String COMPLETE_TOPIC = "transfer.fts_monitoring_complete";

    /** Rucio's IdP for its token mode (client_credentials), trusted by Ferry as an experiment's IAM is. */
    static TestTokenIssuer idp;
    static ArtemisStompBroker broker;
    static LocalStack stack;
    static NginxWebDav nginx;
    static TapeRestServer tape;
    static RucioDeployment rucio;
    static Map<String, String> scenario;
    static String admin;

    @BeforeAll
    static void start() throws Exception {
        ClientsVenv clients = ClientsVenv.require("fts3.rest.client", "M2Crypto");
        broker = new ArtemisStompBroker();
        idp = TestTokenIssuer.start("https://idp.ferry.test/");
        idp.allowExchange("rucio", "rucio-idp-secret", Duration.ofHours(1));
        Map<String, String> env = new HashMap<>(Map.of(
                "FERRY_SCHEDULER_MONITORING_STOMP_ENABLED", "true",
                "FERRY_SCHEDULER_MONITORING_STOMP_HOST", "127.0.0.1",
                "FERRY_SCHEDULER_MONITORING_STOMP_PORT", Integer.toString(broker.port)));
        // the IdP's tokens: audience Ferry's host name (Rucio asks for the FTS3 host's), all for atlas (client tokens
        // name no group); scope fts submits, as the stack grants it
        env.put("FERRY_IDENTITY_ISSUERS_RUCIOIDP_URL", idp.issuer());
        env.put("FERRY_IDENTITY_ISSUERS_RUCIOIDP_JWKS", idp.jwks().toString());
        env.put("FERRY_IDENTITY_ISSUERS_RUCIOIDP_AUDIENCES", "localhost");
        env.put("FERRY_IDENTITY_ISSUERS_RUCIOIDP_VO", "atlas");
        // the token RSEs' SE speaks HTTPS with a certificate of the stack's CA (made before the services start)
        env.put("FERRY_SCHEDULER_ENGINE_TLS_CA_CERTIFICATES", Path.of("target", "it-rucio", "grid", "certificates").toAbsolutePath().toString());
        stack = ItStacks.start("it-rucio", env);
        admin = stack.tokens().mint(DevTokens.Claims.of("it-admin", null, "transfer:admin"));
        stack.gridPki().host();
        nginx = new NginxWebDav(new NginxWebDav.Tls(stack.gridPki().hostCertificateFile(), stack.gridPki().hostKeyFile(), null));
        // the tape SE: WebDAV for the copies, the test Tape REST endpoint for archiveinfo (on tape at the first question)
        tape = new TapeRestServer(0, 1);
        Files.createDirectories(nginx.file("se-tape/rucio"));
        HttpResponse<String> tapeSe = ferry("PUT", "/endpoints/RUCIO-TAPE", "{\"site\":\"RUCIO-SITE-tape\",\"baseUrls\":{\"http\":\""
                + nginx.url("/se-tape") + "\",\"tape\":\"" + tape.url() + "\"},\"access\":{\"rules\":[{\"vo\":\"atlas\",\"read\":true,\"write\":true}]}}");
        assertTrue(tapeSe.statusCode() == 200 || tapeSe.statusCode() == 201, tapeSe.body());
        for (String se : List.of("a", "b", "md5", "adler32", "held", "hop", "far")) {
            Files.createDirectories(nginx.file("se-" + se + "/rucio"));
            HttpResponse<String> r = ferry("PUT", "/endpoints/RUCIO-" + se.toUpperCase(Locale.ROOT), "{\"site\":\"RUCIO-SITE-" + se
                    + "\",\"baseUrls\":{\"http\":\"" + nginx.url("/se-" + se) + "\"},\"access\":{\"rules\":[{\"vo\":\"atlas\",\"read\":true,\"write\":true}]}}");
            assertTrue(r.statusCode() == 200 || r.statusCode() == 201, r.body());
        }

        // the token RSEs: davs only, as Rucio's token mode wants
        for (String se : List.of("tok-a", "tok-b")) {
            Files.createDirectories(nginx.file("se-" + se + "/rucio"));
            String base = davs("/se-" + se);
            HttpResponse<String> r = ferry("PUT", "/endpoints/RUCIO-" + se.toUpperCase(Locale.ROOT), "{\"site\":\"RUCIO-SITE-" + se
                    + "\",\"baseUrls\":{\"davs\":\"" + base + "\"},\"access\":{\"rules\":[{\"vo\":\"atlas\",\"read\":true,\"write\":true}]}}");
            assertTrue(r.statusCode() == 200 || r.statusCode() == 201, r.body());
        }

        // The proxy Rucio presents ([conveyor] usercert), delegated once with FTS3's own client
        Path work = stack.stateDirectory().resolve("rucio");
        Files.createDirectories(work);
        Path proxy = stack.gridPki().writeProxy("atlas", List.of("/atlas/Role=production"), Duration.ofHours(12), work.resolve("rucio.proxy"));
        Process delegate = clients.process(clients.command("fts-rest-delegate").toString(), "-s", stack.schedulerHttpsUrl(),
                "--cert", proxy.toString(), "--key", proxy.toString(), "--capath", stack.gridPki().certificates().toString())
                .redirectErrorStream(true).start();
        String delegated = new String(delegate.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(delegate.waitFor(60, TimeUnit.SECONDS) && delegate.exitValue() == 0, delegated);

        // Rucio's database beside Ferry's, in the same PostgreSQL
        PostgresServer.Credentials db = stack.postgres().ensureDatabase("rucio", true);
        rucio = RucioDeployment.setUp(work, Map.of(
                "RUCIO_DB_URL", "postgresql+psycopg://" + enc(db.user()) + ":" + enc(db.password()) + "@127.0.0.1:" + stack.postgres().port() + "/rucio",
                "RUCIO_SERVER_PORT", Integer.toString(FreePort.find()),
                "FERRY_FTS3_URL", stack.schedulerHttpsUrl(),
                "RUCIO_USERCERT", proxy.toString(),
                "BROKER", "127.0.0.1:" + broker.port,
                "BROKER_VO", "atlas",
                "OIDC_ISSUER_URL", idp.base(),
                "OIDC_CLIENT_ID", "rucio",
                "OIDC_CLIENT_SECRET", "rucio-idp-secret"));
        scenario = Map.of(
                "FERRY_FTS3_URL", stack.schedulerHttpsUrl(),
                "SE_A_URL", nginx.url("/se-a/rucio"),
                "SE_B_URL", nginx.url("/se-b/rucio"),
                "MORE_RSES", "FERRY_MD5=" + nginx.url("/se-md5/rucio") + "#md5 FERRY_ADLER32=" + nginx.url("/se-adler32/rucio")
                        + "#adler32 FERRY_HELD=" + nginx.url("/se-held/rucio") + " FERRY_HOP=" + nginx.url("/se-hop/rucio")
                        + " FERRY_FAR=" + nginx.url("/se-far/rucio") + " FERRY_TOK_A=" + davs("/se-tok-a/rucio")
                        + " FERRY_TOK_B=" + davs("/se-tok-b/rucio"),
                "TOKEN_RSES", "FERRY_TOK_A FERRY_TOK_B",
                "MULTIHOP_VIA", "FERRY_HOP",
                "MULTIHOP_TO", "FERRY_FAR",
                "SE_TAPE_URL", nginx.url("/se-tape/rucio"),
                "SE_A_DIR", nginx.file("se-a/rucio").toString(),
                "SCOPE", SCOPE);
    }

    @AfterAll
    static void stop() throws Exception {
        for (AutoCloseable c : new AutoCloseable[]{rucio, nginx, tape, stack, broker, idp}) {
            if (c != null) {
                c.close();
            }
        }
    }

    /**
     * The receiver alone brings three rules to OK, each to an RSE with its own checksum algorithms (both, MD5 only,
     * ADLER32 only): Rucio sends the algorithm the two RSEs share, Ferry verifies it, the replicas are AVAILABLE with
     * Rucio's checksums and the bytes at the destination are the source's; Rucio's transfer link opens Ferry's monitor.
     */
    @Test
    void theReceiverBringsRulesToOkWithEachRsesChecksumAlgorithm() throws Exception {
        Map<String, JsonNode> done = new HashMap<>();  // the requests once DONE: the finisher archives them
        try (AutoCloseable receiver = receiver()) {
            Map<String, String> rules = Map.of("ds-both", "FERRY_B", "ds-md5", "FERRY_MD5", "ds-adler32", "FERRY_ADLER32");
            for (var rule : rules.entrySet()) {
                rule(rule.getKey(), rule.getValue(), 2);
            }
            rucio.runOnce("rucio-conveyor-submitter");
            for (var rule : rules.entrySet()) {
                done.put(rule.getKey(), awaitRequests(rule.getKey(), rule.getValue(), "DONE", Duration.ofSeconds(120)));
            }
        }
        rucio.runOnce("rucio-conveyor-finisher");

        for (var rule : Map.of("ds-both", "ADLER32", "ds-md5", "MD5", "ds-adler32", "ADLER32").entrySet()) {
            String rse = Map.of("ds-both", "FERRY_B", "ds-md5", "FERRY_MD5", "ds-adler32", "FERRY_ADLER32").get(rule.getKey());
            JsonNode state = rucio.inspect(SCOPE, rule.getKey(), rse);
            assertReplicated(state, done.get(rule.getKey()));
            for (JsonNode f : done.get(rule.getKey()).get("files")) {
                String job = f.at("/request/external_id").asText();
                JsonNode files = JSON.readTree(ferry("GET", "/jobs/" + job + "/files", null).body());
                String expected = rule.getValue() + ":" + f.get(rule.getValue().toLowerCase(Locale.ROOT)).asText();
                assertEquals(expected.toLowerCase(Locale.ROOT), files.get(0).get("checksum").asText().toLowerCase(Locale.ROOT),
                        rule.getKey() + ": the checksum Rucio picked for " + rse + " is the one Ferry verified: " + files);
                assertEquals("FINISHED", files.get(0).get("file_state").asText(), files.toString());
            }
            // Rucio's transfer-done events link FTS3's web monitor for the job, which is Ferry's monitor
            List<JsonNode> events = new ArrayList<>();
            state.get("transfer_events").forEach(e -> {
                if (e.get("event_type").asText().equals("transfer-done")) {
                    events.add(e);
                }
            });
            assertEquals(2, events.size(), state.toString());
            for (JsonNode e : events) {
                String link = e.get("transfer_link").asText();
                assertEquals(stack.schedulerHttpsUrl() + "/fts3/ftsmon/#/job/" + e.get("transfer_id").asText(), link);
                HttpResponse<String> page = HttpClient.newBuilder().sslContext(stack.gridPki().user().clientTls(stack.gridPki().caCertificate()))
                        .followRedirects(HttpClient.Redirect.NORMAL).build()
                        .send(HttpRequest.newBuilder(URI.create(link.substring(0, link.indexOf('#')))).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, page.statusCode(), page.body());
                assertEquals("/monitor/", page.uri().getPath(), "the link opens the web monitor, whose #/job/<id> shows the job");
            }
        }
    }

    /**
     * An RSE that only another reaches (no distance from the source): Rucio plans the path through the intermediate RSE
     * and submits both hops as one multihop job, which Ferry runs in order; the receiver takes the first hop's message
     * (job still ACTIVE) and the last's, and the rule reaches OK with the bytes at the far end.
     */
    @Test
    void aRuleToAnRseBehindAnotherGoesThroughItInOneMultihopJob() throws Exception {
        JsonNode done;
        try (AutoCloseable receiver = receiver()) {
            rule("ds-multihop", "FERRY_FAR", 1);
            // a multihop job holds the path's first group-bulk hops (Rucio's bulk_group_transfers), and the default
            // group bulk is 1: sites run the submitter with a larger one
            rucio.runOnce("rucio-conveyor-submitter", "--group-bulk", "100");
            done = awaitRequests("ds-multihop", "FERRY_FAR", "DONE", Duration.ofSeconds(120));
        }
        // a pass of the finisher takes no request whose previous hop it has not handled yet: the hop's, then the last's
        rucio.runOnce("rucio-conveyor-finisher");
        rucio.runOnce("rucio-conveyor-finisher");
        assertReplicated(rucio.inspect(SCOPE, "ds-multihop", "FERRY_FAR"), done);

        String job = done.at("/files/0/request/external_id").asText();
        JsonNode view = JSON.readTree(ferry("GET", "/jobs/" + job, null).body());
        assertEquals("FINISHED", view.get("job_state").asText(), view.toString());
        assertEquals("H", view.get("job_type").asText(), "one multihop job (FTS3's job type H): " + view);
        JsonNode files = JSON.readTree(ferry("GET", "/jobs/" + job + "/files", null).body());
        assertEquals(2, files.size(), files.toString());
        assertTrue(files.get(0).get("dest_surl").asText().contains("/se-hop/") && files.get(1).get("source_surl").asText().contains("/se-hop/")
                && files.get(1).get("dest_surl").asText().contains("/se-far/"), "A to the hop, the hop to the far RSE: " + files);
    }

    /**
     * A corrupt source replica (FERRY_A's copy; a good one on FERRY_B, farther). With Rucio's default multi-source jobs,
     * Ferry's copy from FERRY_A fails its checksum and Ferry goes on to FERRY_B within the job: the receiver never takes
     * the failed source for the transfer's failure (FTS3's job_state ACTIVE) and the rule reaches OK with the good bytes.
     * With one source per job (sites that keep FTS3 from failing over), the transfer fails with FTS3's checksum text,
     * which the site's suspicious_pattern matches: Rucio's finisher declares FERRY_A's replica suspicious and queues the
     * transfer again.
     */
    @Test
    void aCorruptSourceIsFailedOverWithinTheJobOrDeclaredSuspicious() throws Exception {
        Map<String, String> env = new HashMap<>(scenario);
        env.put("ALSO_ON", "FERRY_B");
        env.put("SE_ALSO_DIR", nginx.file("se-b/rucio").toString());
        JsonNode failedOver;
        JsonNode failed;
        try (AutoCloseable receiver = receiver()) {
            rule("ds-failover", "FERRY_MD5", 1, env);
            rule("ds-corrupt", "FERRY_ADLER32", 1);
            for (String name : List.of("ds-failover.file1", "ds-corrupt.file1")) {
                Path onA = Files.walk(nginx.file("se-a/rucio")).filter(f -> f.getFileName().toString().equals(name)).findFirst().orElseThrow();
                byte[] bytes = Files.readAllBytes(onA);
                bytes[bytes.length / 2] ^= 0x5a;
                Files.write(onA, bytes);
            }
            rucio.runOnce("rucio-conveyor-submitter", "--include-rses", "FERRY_MD5");
            rucio.runOnce("rucio-conveyor-submitter", "--max-sources", "0", "--include-rses", "FERRY_ADLER32");
            failedOver = awaitRequests("ds-failover", "FERRY_MD5", "DONE", Duration.ofSeconds(90));
            failed = awaitRequests("ds-corrupt", "FERRY_ADLER32", "FAILED", Duration.ofSeconds(90));
        }
        assertEquals("FERRY_B", failedOver.at("/files/0/request/source_rse").asText(), failedOver.toString());
        JsonNode within = JSON.readTree(ferry("GET", "/jobs/" + failedOver.at("/files/0/request/external_id").asText() + "/files", null).body());
        assertEquals("FINISHED", within.get(0).get("file_state").asText(), within.toString());
        assertTrue(within.get(0).get("source_surl").asText().contains("/se-b/"), within.toString());
        JsonNode tried = JSON.readTree(ferry("GET", "/jobs/" + failedOver.at("/files/0/request/external_id").asText() + "/files/"
                + within.get(0).get("file_id").asText() + "/retries", null).body());
        assertTrue(tried.toString().contains("checksum do not match"), "Ferry tried FERRY_A's copy first: " + tried);

        assertEquals("FERRY_A", failed.at("/files/0/request/source_rse").asText(), failed.toString());
        assertTrue(failed.at("/files/0/request/err_msg").asText().contains("Source and user-defined ADLER32 checksum do not match"), failed.toString());
        rucio.runOnce("rucio-conveyor-finisher");

        JsonNode failover = rucio.inspect(SCOPE, "ds-failover", "FERRY_MD5");
        assertReplicated(failover, failedOver, "se-b");
        assertTrue(failover.get("transfer_events").findValuesAsText("event_type").stream().noneMatch("transfer-failed"::equals),
                "the failed source within the job was not the transfer's failure: " + failover);
        JsonNode corrupt = rucio.inspect(SCOPE, "ds-corrupt", "FERRY_ADLER32");
        assertEquals(List.of("FERRY_A"), corrupt.get("suspicious").findValuesAsText("rse"), "Rucio marked FERRY_A's copy: " + corrupt);
        assertEquals("QUEUED", corrupt.at("/files/0/request/state").asText(), "queued again: " + corrupt);
        assertEquals(1, corrupt.at("/files/0/request/retry_count").asInt(), corrupt.toString());
    }

    /**
     * Without the receiver, the poller's bulk status query alone brings rules to OK: one to a disk RSE, and one to a
     * tape RSE, whose job Rucio gives an archive_timeout: Ferry copies the file, then asks the SE's Tape REST
     * archiveinfo until it is on tape, and only then is the file FINISHED for the poller (its completion message
     * says is_archiving, which Rucio's receiver leaves to the poller).
     */
    @Test
    void thePollerAloneBringsRulesToOkOnDiskAndOnTape() throws Exception {
        rule("ds-polled", "FERRY_B", 2);
        rule("ds-tape", "FERRY_TAPE", 1);
        rucio.runOnce("rucio-conveyor-submitter");
        List<JsonNode> submitted = List.of(awaitRequests("ds-polled", "FERRY_B", "SUBMITTED", Duration.ofSeconds(30)),
                awaitRequests("ds-tape", "FERRY_TAPE", "SUBMITTED", Duration.ofSeconds(30)));
        for (JsonNode s : submitted) {
            for (JsonNode f : s.get("files")) {
                String job = f.at("/request/external_id").asText();
                Eventually.until(Duration.ofSeconds(90),
                        () -> JSON.readTree(ferry("GET", "/jobs/" + job, null).body()).path("job_state").asText().equals("FINISHED"), "Ferry finished job " + job);
            }
        }
        // Rucio gave the job an archive_timeout (the RSE's attribute): the file was FINISHED once on tape
        assertTrue(tape.requests.stream().anyMatch(r -> r.path().endsWith("/archiveinfo")
                && r.body().toString().contains("ds-tape.file1")), "Ferry asked the tape SE whether the file is on tape: " + tape.requests);

        rucio.runOnce("rucio-conveyor-poller", "--older-than", "0");
        JsonNode polled = awaitRequests("ds-polled", "FERRY_B", "DONE", Duration.ofSeconds(5));
        JsonNode archived = awaitRequests("ds-tape", "FERRY_TAPE", "DONE", Duration.ofSeconds(5));
        rucio.runOnce("rucio-conveyor-finisher");
        assertReplicated(rucio.inspect(SCOPE, "ds-polled", "FERRY_B"), polled);
        assertReplicated(rucio.inspect(SCOPE, "ds-tape", "FERRY_TAPE"), archived);
    }

    /**
     * A rule's transfers held by Ferry (their SE banned with "wait"): raising the rule's priority in Rucio raises the
     * Ferry job's; the rule expiring makes Rucio's judge cancel its transfers, and Ferry's job ends CANCELED.
     */
    @Test
    void aRulesPriorityAndItsCancellationReachFerry() throws Exception {
        HttpResponse<String> ban = ferry("POST", "/ban/se", "{\"storage\":\"RUCIO-HELD\",\"status\":\"wait\",\"allow_submit\":true}");
        assertEquals(200, ban.statusCode(), ban.body());
        try {
            String ruleId = rule("ds-held", "FERRY_HELD", 1);
            rucio.runOnce("rucio-conveyor-submitter");
            JsonNode submitted = awaitRequests("ds-held", "FERRY_HELD", "SUBMITTED", Duration.ofSeconds(30));
            String job = submitted.at("/files/0/request/external_id").asText();
            JsonNode before = JSON.readTree(ferry("GET", "/jobs/" + job, null).body());
            assertEquals(3, before.get("priority").asInt(), before.toString());
            assertEquals("SUBMITTED", before.get("job_state").asText(), before.toString());

            rucio.client("from rucio.client import Client; Client().update_replication_rule('" + ruleId + "', {'priority': 5})");
            JsonNode raised = JSON.readTree(ferry("GET", "/jobs/" + job, null).body());
            assertEquals(5, raised.get("priority").asInt(), "Rucio's server set the priority of the job in Ferry: " + raised);

            rucio.client("from rucio.client import Client; Client().update_replication_rule('" + ruleId + "', {'lifetime': 1})");
            Thread.sleep(1500);
            rucio.runOnce("rucio-judge-cleaner");
            Eventually.until(Duration.ofSeconds(30),
                    () -> JSON.readTree(ferry("GET", "/jobs/" + job, null).body()).path("job_state").asText().equals("CANCELED"), "Ferry's job " + job + " canceled");
            assertTrue(rucio.inspect(SCOPE, "ds-held", "FERRY_HELD").get("rule").isNull(), "the expired rule is gone");
            assertEquals(0, Files.list(nginx.file("se-held/rucio")).count(), "nothing was written to the held SE");
        } finally {
            ferry("DELETE", "/ban/se?storage=RUCIO-HELD", null);
        }
    }

    /**
     * A rule from the tape RSE: Rucio gives the job bring_online and each file its staging_metadata (the request's
     * activity); Ferry stages the job's files in one Tape REST request, each with that metadata for the SE's host,
     * copies them once on disk and releases them, and the receiver brings the rule to OK.
     */
    @Test
    void aRuleFromTapeIsStagedInOneRequestWithRuciosMetadataAndCopied() throws Exception {
        // both files in one job, as sites run the submitter
        JsonNode done = replicatedFrom("FERRY_TAPE", "se-tape", "ds-from-tape", "FERRY_B", "--group-bulk", "100");

        String job = done.at("/files/0/request/external_id").asText();
        assertEquals(job, done.at("/files/1/request/external_id").asText(), "one job: " + done);
        List<TapeRestServer.Request> stages = tape.requests.stream()
                .filter(r -> r.method().equals("POST") && r.path().equals("/stage") && r.body().toString().contains("ds-from-tape")).toList();
        assertEquals(1, stages.size(), "one stage request for the job's two files: " + tape.requests);
        JsonNode files = stages.get(0).body().get("files");
        assertEquals(2, files.size(), files.toString());
        String host = URI.create(nginx.url("/")).getHost();
        for (JsonNode f : files) {
            assertEquals("User Subscriptions", f.at("/targetedMetadata/" + host + "/default/activity").asText(),
                    "Rucio's staging_metadata, for the source's host: " + f);
        }
        assertTrue(tape.requests.stream().filter(r -> r.method().equals("POST") && r.path().startsWith("/release/")
                && r.body().toString().contains("ds-from-tape")).count() == 2, "each copied file released: " + tape.requests);
        JsonNode view = JSON.readTree(ferry("GET", "/jobs/" + job + "/files", null).body());
        for (JsonNode f : view) {
            assertTrue(!f.get("staging_start").isNull() && !f.get("staging_finished").isNull(), "staged first: " + view);
        }
    }

    /**
     * Rucio's token mode, between two RSEs with oidc_support over davs: Rucio asks its IdP (client_credentials) for a
     * token toward Ferry (audience Ferry's host, scope fts) and for each file a source token (storage.read) and a
     * destination token (storage.modify), and submits with them and no certificate. Ferry takes the job on the token
     * (the job is the token subject's), presents each file's own tokens to the SEs over HTTPS, and the rule reaches OK.
     */
    @Test
    void aRuleBetweenTokenRsesIsSubmittedAndCopiedWithRuciosTokens() throws Exception {
        JsonNode done = replicatedFrom("FERRY_TOK_A", "se-tok-a", "ds-token", "FERRY_TOK_B");

        List<String> asked = idp.asked();
        assertTrue(asked.contains("client rucio fts localhost"), "Rucio's token toward Ferry: " + asked);
        // the storage tokens' scopes: the RSE's prefix, Rucio's sorted scope list; the audience the SE's host
        assertTrue(asked.contains("client rucio offline_access storage.read:/se-tok-a/rucio/ localhost"), asked.toString());
        assertTrue(asked.contains("client rucio offline_access storage.modify:/se-tok-b/rucio/ storage.read:/se-tok-b/rucio/ localhost"),
                asked.toString());
        for (JsonNode f : done.get("files")) {
            String job = f.at("/request/external_id").asText();
            JsonNode view = JSON.readTree(ferry("GET", "/jobs/" + job, null).body());
            assertEquals("rucio", view.get("user_dn").asText(), "submitted on the IdP's token, not the proxy: " + view);
            assertEquals("atlas", view.get("vo_name").asText(), view.toString());
            // each file's own tokens at the SEs: the source's on the read, the destination's on the upload
            String dest = URI.create(f.at("/request/dest_url").asText()).getPath();
            String source = "/se-tok-a/rucio" + dest.substring("/se-tok-b/rucio".length());
            String read = bearer("GET", source);
            String write = bearer("PUT", dest);
            assertTrue(read.startsWith("Bearer ey") && write.startsWith("Bearer ey") && !read.equals(write), read + " / " + write);
            assertTrue(claims(read).contains("storage.read:/se-tok-a/rucio") && claims(write).contains("storage.modify:/se-tok-b/rucio"),
                    claims(read) + " / " + claims(write));
        }
    }

    /**
     * A dataset of two files held by {@code sourceRse} (written to the SE directory {@code sourceSe}) replicated by a
     * rule to {@code rse} with the receiver running and the submitter's {@code submitterArgs}, then finished: the rule
     * OK with the source's bytes. Answers the inspection while the requests were DONE.
     */
    static JsonNode replicatedFrom(String sourceRse, String sourceSe, String dataset, String rse, String... submitterArgs) throws Exception {
        Map<String, String> env = new HashMap<>(scenario);
        env.put("SOURCE_RSE", sourceRse);
        env.put("SE_SOURCE_DIR", nginx.file(sourceSe + "/rucio").toString());
        List<String> args = new ArrayList<>(List.of(submitterArgs));
        args.addAll(List.of("--include-rses", rse));
        JsonNode done;
        try (AutoCloseable receiver = receiver()) {
            rule(dataset, rse, 2, env);
            rucio.runOnce("rucio-conveyor-submitter", args.toArray(String[]::new));
            done = awaitRequests(dataset, rse, "DONE", Duration.ofSeconds(120));
        }
        rucio.runOnce("rucio-conveyor-finisher");
        assertReplicated(rucio.inspect(SCOPE, dataset, rse), done, sourceSe);
        return done;
    }

    /** The Authorization header of the SE's last {@code method} request for {@code path}. */
    static String bearer(String method, String path) throws Exception {
        return nginx.authorizedRequests().stream().filter(l -> l.startsWith(method + " " + path + " ")).reduce((a, b) -> b)
                .map(l -> l.substring((method + " " + path + " ").length())).orElseThrow(() -> new AssertionError("no " + method + " of " + path));
    }

    /** The payload of a bearer token, as JSON text. */
    static String claims(String authorization) {
        String jwt = authorization.substring("Bearer ".length());
        return new String(java.util.Base64.getUrlDecoder().decode(jwt.split("\\.")[1]), StandardCharsets.UTF_8);
    }

    /** The SE's HTTPS URL for {@code path} as Rucio's WebDAV protocol names it (davs). */
    static String davs(String path) {
        return nginx.httpsUrl(path).replaceFirst("^https:", "davs:");
    }

    /** Rucio's receiver, running and subscribed to FTS3's completion topic until closed. */
    static AutoCloseable receiver() throws Exception {
        Process receiver = rucio.start("rucio-conveyor-receiver");
        Eventually.until(Duration.ofSeconds(60), () -> broker.subscribers(COMPLETE_TOPIC) > 0, "the receiver subscribed to " + COMPLETE_TOPIC);
        return () -> {
            receiver.destroy();
            receiver.waitFor(20, TimeUnit.SECONDS);
        };
    }

    /** Registers a dataset of {@code files} files of 1 MiB on FERRY_A (written to its SE) and a rule of it to {@code rse}. */
    static String rule(String dataset, String rse, int files) throws Exception {
        return rule(dataset, rse, files, scenario);
    }

    /** As {@link #rule(String, String, int)} with more of scenario.py's settings. */
    static String rule(String dataset, String rse, int files, Map<String, String> settings) throws Exception {
        Map<String, String> env = new HashMap<>(settings);
        env.put("DATASET", dataset);
        env.put("RULE_RSE", rse);
        env.put("FILES", Integer.toString(files));
        String out = rucio.clientScript("scenario.py", env);
        return out.lines().filter(l -> l.startsWith("{\"rule\"")).map(l -> {
            try {
                return JSON.readTree(l).get("rule").asText();
            } catch (Exception e) {
                throw new AssertionError(l, e);
            }
        }).findFirst().orElseThrow(() -> new AssertionError("no rule in: " + out));
    }

    /** Waits until every file of the dataset has a request to {@code rse} in {@code state}; the last inspection. */
    static JsonNode awaitRequests(String dataset, String rse, String state, Duration within) throws Exception {
        JsonNode[] last = new JsonNode[1];
        Predicate<JsonNode> all = s -> {
            for (JsonNode f : s.get("files")) {
                if (!state.equals(f.at("/request/state").asText())) {
                    return false;
                }
            }
            return !s.get("files").isEmpty();
        };
        try {
            Eventually.until(within, () -> all.test(last[0] = rucio.inspect(SCOPE, dataset, rse)), "the requests of " + dataset + " to " + rse + " " + state);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; last seen: " + last[0], e);
        }
        return last[0];
    }

    /**
     * The rule OK, each file's replica AVAILABLE on the rule's RSE, its bytes those on FERRY_A's SE; {@code done}: the
     * inspection while the requests were DONE (the finisher archives them), for their destination URLs.
     */
    static void assertReplicated(JsonNode state, JsonNode done) throws Exception {
        assertReplicated(state, done, "se-a");
    }

    /** As {@link #assertReplicated(JsonNode, JsonNode)}, the bytes compared with those on the SE at {@code /source}. */
    static void assertReplicated(JsonNode state, JsonNode done, String source) throws Exception {
        assertEquals("OK", state.at("/rule/state").asText(), state.toString());
        assertEquals(state.get("files").size(), state.at("/rule/locks_ok").asInt(), state.toString());
        for (JsonNode f : state.get("files")) {
            assertEquals("AVAILABLE", f.get("replica_state").asText(), f.toString());
        }
        for (JsonNode f : done.get("files")) {
            String dest = URI.create(f.at("/request/dest_url").asText()).getPath();
            Path copy = nginx.file(dest.substring(1));
            Path original = nginx.file(source + "/rucio" + dest.substring(dest.indexOf("/rucio/") + "/rucio".length()));
            assertEquals(-1, Files.mismatch(original, copy), copy + " holds the bytes of " + original);
            assertEquals(f.get("bytes").asLong(), Files.size(copy));
        }
    }

    static HttpResponse<String> ferry(String method, String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(stack.service(ServiceSpec.SCHEDULER).url() + path))
                .header("Authorization", "Bearer " + admin).header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return HttpClient.newHttpClient().send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
