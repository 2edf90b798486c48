package io.ferry.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ferry.dev.DevTokens;
import io.ferry.dev.NginxWebDav;
import io.ferry.dev.testca.TestTokenIssuer;
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

import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.Adler32;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The real FTS3 CLI ({@code fts-rest-*}, unmodified) against the packaged scheduler, authenticated with WLCG Common
 * JWT Profile tokens from a second issuer (an IAM-like {@link TestTokenIssuer}, not Ferry's dev issuer) whose groups
 * the stack grants by configuration: {@code /atlas/production} submits for atlas, {@code /atlas} reads. Copies run
 * between two nginx WebDAV SEs. The issuer's keys rotate while the stack runs; refused tokens are 401 with a reason
 * the CLI prints.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class Fts3TokenIT {

    /** The scheduler's own name, the audience its IAM issues tokens for. */
    private static final String AUDIENCE = "https://fts.ferry.test";
    private static final String SCOPE = "fts storage.read:/ storage.modify:/";
    private static final List<String> PRODUCTION = List.of("/atlas", "/atlas/production");
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final ObjectMapper JSON = new ObjectMapper();

    private Fts3Client cli;
    private TestTokenIssuer iam;
    private LocalStack stack;
    private NginxWebDav nginx;
    private ServerSocket silentSe;
    private String scheduler;
    private String finishedJob;

    @BeforeAll
    void start() throws Exception {
        cli = Fts3Client.locate();
        iam = TestTokenIssuer.start("https://iam.ferry.test/");
        Map<String, String> env = new HashMap<>();
        env.put("FERRY_IDENTITY_ISSUERS_IAM_URL", iam.issuer());
        env.put("FERRY_IDENTITY_ISSUERS_IAM_JWKS", iam.jwks().toString());
        env.put("FERRY_IDENTITY_ISSUERS_IAM_AUDIENCES", AUDIENCE);
        // A new kid fetches the key set at once, but not more often than this: short, so the rotation below is
        // seen by the first command after it however soon the previous fetch was.
        env.put("FERRY_IDENTITY_JWKS_MIN_REFETCH_INTERVAL", "PT1S");
        env.put("FERRY_IDENTITY_GRANTS_ATLASPRODUCTION_GROUP", "/atlas/production");
        env.put("FERRY_IDENTITY_GRANTS_ATLASPRODUCTION_ROLES", "transfer:read,transfer:submit");
        env.put("FERRY_IDENTITY_GRANTS_ATLASMEMBERS_GROUP", "/atlas");
        env.put("FERRY_IDENTITY_GRANTS_ATLASMEMBERS_ROLES", "transfer:read");
        stack = ItStacks.start("it-fts3-token", env);
        scheduler = stack.service(ServiceSpec.SCHEDULER).url();
        nginx = new NginxWebDav();
        // An SE that takes connections and never answers: its copies stay queued until they are cancelled.
        silentSe = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
        registerSe("NGX-A", nginx.url("/se-a"));
        registerSe("NGX-B", nginx.url("/se-b"));
        registerSe("SILENT", "http://127.0.0.1:" + silentSe.getLocalPort() + "/data");
        // a WebDAV SE as Rucio names them (dav:// here, davs:// over TLS)
        registerSe("NGX-DAV", nginx.url("/se-dav").replaceFirst("^http:", "dav:"));
        Files.createDirectories(nginx.file("/se-dav"));
        Files.createDirectories(nginx.file("/se-b"));
    }

    @AfterAll
    void stop() throws Exception {
        if (stack != null) {
            stack.close();
        }
        if (nginx != null) {
            nginx.close();
        }
        if (silentSe != null) {
            silentSe.close();
        }
        if (iam != null) {
            iam.close();
        }
    }

    private String production() {
        return iam.mint(iam.wlcgClaims("alice", AUDIENCE, SCOPE, PRODUCTION, Duration.ofHours(1)).build());
    }

    private Fts3Client.Result fts(String command, String token, String... args) throws Exception {
        List<String> argv = new ArrayList<>(List.of("--access-token=" + token, "-s", scheduler));
        argv.addAll(List.of(args));
        return cli.run(command, argv.toArray(String[]::new));
    }

    @Test
    @Order(1)
    void whoamiAndServerStatusShowTheCallerAndTheReplicas() throws Exception {
        Fts3Client.Result whoami = fts("whoami", production());
        assertTrue(whoami.ok(), whoami.toString());
        assertTrue(whoami.output().contains("User DN: alice"), whoami.toString());
        assertTrue(whoami.output().contains("VO: atlas"), whoami.toString());
        // fts-rest's own ids: uuid5(BASE_ID, "atlas") and BASE_ID
        assertTrue(whoami.output().contains("VO id: a884b056-0359-5c31-af8e-e25b2d364632"), whoami.toString());
        assertTrue(whoami.output().contains("Base id: 01874efb-4735-4595-bc9c-591aef8240c9"), whoami.toString());

        Fts3Client.Result status = fts("server-status", production());
        assertTrue(status.ok(), status.toString());
        assertTrue(status.output().contains("\tactive: ") && status.output().contains("\tstaging: "), status.toString());
    }

    @Test
    @Order(2)
    void aCopySubmittedByTheCliFinishesAndItsStatusReadsBack() throws Exception {
        byte[] data = writeRandom("/se-a/cli/one.dat", 700_000, 1);
        Fts3Client.Result submitted = fts("transfer-submit", production(), nginx.url("/se-a/cli/one.dat"), nginx.url("/se-b/cli/one.dat"));
        assertTrue(submitted.ok(), submitted.toString());
        String job = Fts3Client.jobId(submitted).orElseThrow(() -> new AssertionError(submitted.toString()));
        Eventually.until(Duration.ofSeconds(90), () -> fts("transfer-status", production(), job).output().contains("Status: FINISHED"),
                "fts-rest-transfer-status says job " + job + " FINISHED");
        assertArrayEquals(data, Files.readAllBytes(nginx.file("/se-b/cli/one.dat")));

        // -j: the job with its files and data-management operations (GET /jobs/{id}, /files, /dm)
        Fts3Client.Result detailed = fts("transfer-status", production(), "-j", job);
        assertTrue(detailed.ok(), detailed.toString());
        JsonNode shown = JSON.readTree(detailed.output().substring(detailed.output().indexOf('{')));
        assertEquals("FINISHED", shown.get("job_state").asText(), detailed.toString());
        assertEquals("FINISHED", shown.get("files").get(0).get("file_state").asText(), detailed.toString());
        assertEquals(700_000, shown.get("files").get(0).get("filesize").asLong(), detailed.toString());
        assertTrue(shown.get("dm").isArray() && shown.get("dm").isEmpty(), detailed.toString());

        // FTS3 lists unfinished jobs only (the CLI sends no state_in): a finished job is not among them
        Fts3Client.Result listed = fts("transfer-list", production());
        assertTrue(listed.ok(), listed.toString());
        assertFalse(listed.output().contains("Request ID: " + job), listed.toString());
        finishedJob = job;
    }

    @Test
    @Order(3)
    void checksumsBlockingSubmissionAndBulkFilesWork() throws Exception {
        byte[] data = writeRandom("/se-a/cli/sum.dat", 300_000, 2);
        Adler32 adler = new Adler32();
        adler.update(data);
        // -K compares source and destination with the checksum given; -b polls until the job ends
        Fts3Client.Result blocking = fts("transfer-submit", production(), "-K", "-b", "-i", "1",
                nginx.url("/se-a/cli/sum.dat"), nginx.url("/se-b/cli/sum.dat"), String.format("ADLER32:%08x", adler.getValue()));
        assertTrue(blocking.ok(), blocking.toString());
        assertTrue(blocking.output().contains("Job finished with state FINISHED"), blocking.toString());
        assertArrayEquals(data, Files.readAllBytes(nginx.file("/se-b/cli/sum.dat")));

        Fts3Client.Result wrongSum = fts("transfer-submit", production(), "-K", "-b", "-i", "1",
                nginx.url("/se-a/cli/sum.dat"), nginx.url("/se-b/cli/sum-wrong.dat"), "ADLER32:00000001");
        assertTrue(wrongSum.output().contains("Job finished with state FAILED"), wrongSum.toString());

        // -C target: the destination's checksum is computed; with none given there is nothing to disagree with
        Fts3Client.Result target = fts("transfer-submit", production(), "-C", "target", "-b", "-i", "1",
                nginx.url("/se-a/cli/sum.dat"), nginx.url("/se-b/cli/sum-target.dat"));
        assertTrue(target.output().contains("Job finished with state FINISHED"), target.toString());

        // -f: a bulk file as fts-rest-transfer-submit documents it, each file with its own tokens
        String token = production();
        StringBuilder files = new StringBuilder();
        for (int i = 0; i < 3; i++) {
            writeRandom("/se-a/bulk/f" + i, 100_000 + i, 10 + i);
            files.append(i == 0 ? "" : ",").append("{\"sources\":[\"").append(nginx.url("/se-a/bulk/f" + i))
                    .append("\"],\"destinations\":[\"").append(nginx.url("/se-b/bulk/f" + i)).append("\"],\"source_tokens\":[\"")
                    .append(token).append("\"],\"destination_tokens\":[\"").append(token).append("\"]}");
        }
        Path bulk = Files.createTempFile("fts3-bulk", ".json");
        Files.writeString(bulk, "{\"files\":[" + files + "],\"params\":{\"retry\":1}}");
        Fts3Client.Result submitted = fts("transfer-submit", token, "-f", bulk.toString(), "-b", "-i", "1");
        Files.delete(bulk);
        assertTrue(submitted.output().contains("Job finished with state FINISHED"), submitted.toString());
        for (int i = 0; i < 3; i++) {
            assertArrayEquals(Files.readAllBytes(nginx.file("/se-a/bulk/f" + i)), Files.readAllBytes(nginx.file("/se-b/bulk/f" + i)));
        }
    }

    /** Submits two copies with the easy API and polls them with its bulk status until both have ended. */
    private static final String EASY_SUBMIT_AND_POLL = String.join("\n",
            "import json, sys, time",
            "import fts3.rest.client.easy as fts3",
            "endpoint, token, src1, dst1, src2, dst2 = sys.argv[1:]",
            "ctx = fts3.Context(endpoint, fts_access_token=token)",
            "first = fts3.submit(ctx, fts3.new_job([fts3.new_transfer(src1, dst1)], verify_checksum='target', metadata={'campaign': 'it'}))",
            "second = fts3.submit(ctx, fts3.new_job([fts3.new_transfer(src2, dst2, checksum=None)], priority=4))",
            "for _ in range(120):",
            "    jobs = fts3.get_jobs_statuses(ctx, [first, second], list_files=True)",
            "    if all(j['job_state'] in ('FINISHED', 'FAILED', 'FINISHEDDIRTY', 'CANCELED') for j in jobs):",
            "        break",
            "    time.sleep(0.5)",
            "one = fts3.get_job_status(ctx, first, list_files=True)",
            "print(json.dumps({'jobs': jobs, 'one': one, 'whoami': fts3.whoami(ctx)}))");

    @Test
    @Order(4)
    void theEasyApiSubmitsAndPollsInBulkWithFiles() throws Exception {
        writeRandom("/se-a/easy/a.dat", 120_000, 4);
        writeRandom("/se-a/easy/b.dat", 130_000, 5);
        Fts3Client.Result r = cli.python(EASY_SUBMIT_AND_POLL, scheduler, production(), nginx.url("/se-a/easy/a.dat"), nginx.url("/se-b/easy/a.dat"),
                nginx.url("/se-a/easy/b.dat"), nginx.url("/se-b/easy/b.dat"));
        assertTrue(r.ok(), r.toString());
        JsonNode out = JSON.readTree(r.output().substring(r.output().indexOf('{')));
        for (JsonNode job : out.get("jobs")) {
            assertEquals("FINISHED", job.get("job_state").asText(), r.toString());
            JsonNode file = job.get("files").get(0);
            assertEquals("FINISHED", file.get("file_state").asText(), r.toString());
            assertTrue(file.get("dest_surl").asText().startsWith(nginx.url("/se-b/easy/")), r.toString());
            assertTrue(file.has("start_time") && file.has("finish_time") && file.has("source_surl"), r.toString());
        }
        assertEquals("FINISHED", out.get("one").get("files").get(0).get("file_state").asText(), r.toString());
        assertTrue(out.get("one").get("dm").isArray(), r.toString());
        assertEquals("alice", out.get("whoami").get("user_dn").asText(), r.toString());
        assertArrayEquals(Files.readAllBytes(nginx.file("/se-a/easy/b.dat")), Files.readAllBytes(nginx.file("/se-b/easy/b.dat")));
    }

    /**
     * Rucio's conveyor (lib/rucio/transfertool/fts3.py) with plain requests, as it talks to FTS3: its submit body
     * (job_params of build_job_params, files of _file_from_transfer, unknown-to-Ferry params included), its
     * update_priority, its bulk_query with the file fields it asks for and the parsing of __bulk_query_responses
     * (http_status, job_metadata.get, file_metadata['request_id'], strptime of every time), and its cancel.
     */
    private static final String RUCIO_CONVEYOR = String.join("\n",
            "import datetime, json, sys, time, uuid",
            "import requests",
            "host, token, src1, dst1, src2, dst2, silent, sizes, admin, hop, last = sys.argv[1:]",
            "headers = {'Authorization': 'Bearer ' + token, 'Content-Type': 'application/json'}",
            "FMT = '%Y-%m-%dT%H:%M:%S'",
            "def params(priority):",
            "    return {'account': 'root', 'verify_checksum': 'both', 'copy_pin_lifetime': -1, 'bring_online': None,",
            "            'job_metadata': {'issuer': 'rucio', 'multi_sources': False, 'overwrite_when_only_on_disk': False},",
            "            'overwrite': True, 'overwrite_when_only_on_disk': False, 'priority': priority, 's3alternate': True,",
            "            'ipv4': True, 'ipv6': False, 'strict_copy': False, 'max_time_in_queue': 168}",
            "def rfile(request_id, src, dst, size, adler):",
            "    return {'sources': [src], 'destinations': [dst],",
            "            'metadata': {'request_id': request_id, 'scope': 'mc23', 'name': 'f', 'activity': 'User Subscriptions',",
            "                         'request_type': 'TRANSFER', 'src_type': 'DISK', 'dst_type': 'DISK', 'src_rse': 'NGX-A',",
            "                         'dst_rse': 'NGX-B', 'filesize': size, 'md5': None, 'adler32': adler},",
            "            'filesize': size, 'checksum': 'ADLER32:' + adler, 'selection_strategy': 'auto',",
            "            'activity': 'User Subscriptions', 'scitag': 2 << 6 | 17}",
            "def submit(files, priority, **extra):",
            "    t0 = time.time()",
            "    p = params(priority)",
            "    p.update(extra)",
            "    r = requests.post('%s/jobs' % host, data=json.dumps({'files': files, 'params': p}), headers=headers, timeout=60)",
            "    assert r.status_code == 200, (r.status_code, r.text)",
            "    return str(r.json()['job_id']), time.time() - t0",
            "size1, adler1, size2, adler2 = [int(x) if i % 2 == 0 else x for i, x in enumerate(sizes.split())]",
            "req1, req2, req3 = uuid.uuid4().hex, uuid.uuid4().hex, uuid.uuid4().hex",
            "job1, _ = submit([rfile(req1, src1, dst1, size1, adler1)], 3)",
            "job2, _ = submit([rfile(req2, src2, dst2, size2, adler2)], 2)",
            "# a multihop transfer as Rucio builds it: one job, a file per hop, multihop in params and job_metadata",
            "reqh = uuid.uuid4().hex",
            "jobh, _ = submit([rfile(reqh + '1', src1, hop, size1, adler1), rfile(reqh + '2', hop, last, size1, adler1)], 3, multihop=True,",
            "                 overwrite=False, overwrite_hop=True, job_metadata={'issuer': 'rucio', 'multi_sources': False, 'multihop': True})",
            "job3, _ = submit([{'sources': [silent], 'destinations': [silent + '.copy'], 'metadata': {'request_id': req3}, 'activity': 'Staging'}], 3)",
            "r = requests.post('%s/jobs/%s' % (host, job3), data=json.dumps({'params': {'priority': 5}}), headers=headers, timeout=10)",
            "assert r.status_code == 200, r.text",
            "out = {'priority': r.json()['priority']}",
            "lost = str(uuid.uuid4())",
            "fields = 'file_state,dest_surl,finish_time,start_time,staging_start,staging_finished,reason,source_surl,file_metadata'",
            "def bulk_query(ids):",
            "    jobs = requests.Session().get('%s/jobs/%s?files=%s' % (host, ','.join(ids), fields), headers=headers, timeout=10)",
            "    assert jobs.status_code in (200, 207, 404), jobs.text",
            "    answer = jobs.json()",
            "    if not isinstance(answer, list):",
            "        answer = [answer]",
            "    responses = {}",
            "    for job in answer:",
            "        if job['http_status'] == '200 Ok':",
            "            multi = job['job_metadata'].get('multi_sources', False)",
            "            files = {}",
            "            for f in job['files']:",
            "                times = [datetime.datetime.strptime(f[k], FMT) if f[k] else None for k in ('start_time', 'finish_time', 'staging_start', 'staging_finished')]",
            "                files[f['file_metadata']['request_id']] = {'state': f['file_state'], 'started': str(times[0]), 'finished': str(times[1]), 'reason': f['reason']}",
            "            datetime.datetime.strptime(job['submit_time'], FMT)",
            "            responses[job['job_id']] = {'state': job['job_state'], 'files': files, 'multi': multi, 'type': job.get('job_type')}",
            "        elif job['http_status'] == '404 Not Found':",
            "            responses[job['job_id']] = None",
            "        else:",
            "            raise Exception(job['http_status'] + ' ' + str(job.get('http_message')))",
            "    return responses",
            "for _ in range(120):",
            "    seen = bulk_query([job1, job2, job3, lost, jobh])",
            "    if all(seen[j]['state'] in ('FINISHED', 'FAILED', 'FINISHEDDIRTY', 'CANCELED') for j in (job1, job2, jobh)):",
            "        break",
            "    time.sleep(0.5)",
            "out['bulk'] = seen",
            "out['single_lost'] = bulk_query([lost])",
            "out['single'] = bulk_query([job1])",
            "c = requests.delete('%s/jobs/%s' % (host, job3), headers=headers, timeout=10)",
            "assert c.status_code == 200, c.text",
            "out['canceled'] = c.json()['job_state']",
            "out['listed'] = [j['job_id'] for j in requests.get('%s/jobs' % host, headers=headers, timeout=10).json()]",
            "out['ids'] = {'job1': job1, 'job2': job2, 'job3': job3, 'lost': lost, 'req1': req1, 'req2': req2, 'req3': req3, 'jobh': jobh, 'reqh': reqh}",
            "files = [rfile(uuid.uuid4().hex, silent + '/bulk/%d' % i, silent + '/bulk/%d.copy' % i, 1000, '0000abcd') for i in range(10000)]",
            "big, took = submit(files, 1)",
            "requests.delete('%s/jobs/%s' % (host, big), headers=headers, timeout=60)",
            "out['big'] = {'files': len(files), 'seconds': took, 'bytes': len(json.dumps({'files': files, 'params': params(1)}))}",
            "# set_se_status and list_se_status: Rucio bans an SE in downtime (WAIT with a timeout) and lifts the ban",
            "ah = {'Authorization': 'Bearer ' + admin, 'Content-Type': 'application/json'}",
            "ban = json.dumps({'storage': 'SILENT', 'message': 'downtime', 'timeout': 3600, 'status': 'WAIT'})",
            "r = requests.post('%s/ban/se' % host, data=ban, headers=ah, timeout=10)",
            "assert r.status_code == 200, r.text",
            "out['ban'] = r.json()",
            "out['banned'] = requests.get('%s/ban/se' % host, headers=ah, timeout=10).json()",
            "r = requests.delete('%s/ban/se?storage=%s' % (host, 'SILENT'), data=ban, headers=ah, timeout=10)",
            "assert r.status_code == 204, r.text",
            "out['unbanned'] = requests.get('%s/ban/se' % host, headers=ah, timeout=10).json()",
            "print(json.dumps(out))");

    @Test
    @Order(5)
    void rucioSubmitsUpdatesPrioritiesPollsInBulkAndCancelsAsItsTransfertoolDoes() throws Exception {
        byte[] a = writeRandom("/se-a/rucio/a.dat", 140_000, 6);
        byte[] b = writeRandom("/se-a/rucio/b.dat", 150_000, 7);
        String sizes = a.length + " " + adler32(a) + " " + b.length + " " + adler32(b);
        String silent = "http://127.0.0.1:" + silentSe.getLocalPort() + "/data/rucio";
        Fts3Client.Result r = cli.python(RUCIO_CONVEYOR, scheduler, production(), nginx.url("/se-a/rucio/a.dat"),
                nginx.url("/se-b/rucio/a.dat"), nginx.url("/se-a/rucio/b.dat"), nginx.url("/se-dav/rucio/b.dat").replaceFirst("^http:", "dav:"),
                silent, sizes, admin(), nginx.url("/se-b/rucio/hop/a.dat"), nginx.url("/se-dav/rucio/hop/a.dat").replaceFirst("^http:", "dav:"));
        assertTrue(r.ok(), r.toString());
        JsonNode out = JSON.readTree(r.output().substring(r.output().indexOf('{')));
        JsonNode ids = out.get("ids");
        JsonNode bulk = out.get("bulk");
        for (String[] job : new String[][]{{"job1", "req1"}, {"job2", "req2"}}) {
            JsonNode seen = bulk.get(ids.get(job[0]).asText());
            assertEquals("FINISHED", seen.get("state").asText(), r.toString());
            JsonNode file = seen.get("files").get(ids.get(job[1]).asText());
            assertEquals("FINISHED", file.get("state").asText(), r.toString());
            assertFalse(file.get("finished").asText().equals("None"), r.toString());
        }
        assertTrue(bulk.get(ids.get("lost").asText()).isNull(), "a lost job is None to Rucio: " + r);
        // the multihop job: type H, each hop finished, the last one at the third SE
        JsonNode hops = bulk.get(ids.get("jobh").asText());
        assertEquals("H", hops.get("type").asText(), r.toString());
        assertEquals("FINISHED", hops.get("state").asText(), r.toString());
        for (String hop : List.of("1", "2")) {
            assertEquals("FINISHED", hops.get("files").get(ids.get("reqh").asText() + hop).get("state").asText(), r.toString());
        }
        assertArrayEquals(a, Files.readAllBytes(nginx.file("/se-dav/rucio/hop/a.dat")));
        assertTrue(out.get("single_lost").get(ids.get("lost").asText()).isNull(), r.toString());
        assertEquals("FINISHED", out.get("single").get(ids.get("job1").asText()).get("state").asText(), r.toString());
        assertEquals(5, out.get("priority").asInt(), r.toString());
        assertEquals("CANCELED", out.get("canceled").asText(), r.toString());
        assertTrue(out.get("ban").isArray(), r.toString());
        JsonNode ban = out.get("banned").get(0);
        assertEquals("SILENT", ban.get("se").asText(), r.toString());
        assertEquals("WAIT", ban.get("status").asText(), r.toString());
        assertEquals(3600, ban.get("wait_timeout").asInt(), r.toString());
        assertEquals(0, out.get("unbanned").size(), r.toString());
        // GET /jobs without state_in lists unfinished jobs only
        List<String> listed = new ArrayList<>();
        out.get("listed").forEach(j -> listed.add(j.asText()));
        assertFalse(listed.contains(ids.get("job1").asText()) || listed.contains(ids.get("job3").asText()), r.toString());
        assertArrayEquals(a, Files.readAllBytes(nginx.file("/se-b/rucio/a.dat")));
        assertArrayEquals(b, Files.readAllBytes(nginx.file("/se-dav/rucio/b.dat")));
        // a 10,000-file job as Rucio sends it, above the 1 MB limit of other bodies (the time goes to the log, not an assertion)
        JsonNode big = out.get("big");
        assertEquals(10_000, big.get("files").asInt());
        assertTrue(big.get("bytes").asLong() > 1 << 20, r.toString());
        System.out.printf("Fts3TokenIT: a %d-file Rucio submission of %d bytes was accepted in %.3f s%n", big.get("files").asInt(),
                big.get("bytes").asLong(), big.get("seconds").asDouble());
    }

    private static String adler32(byte[] data) {
        java.util.zip.Adler32 a = new java.util.zip.Adler32();
        a.update(data);
        return String.format("%08x", a.getValue());
    }

    @Test
    @Order(6)
    void filesAndJobsAreCancelledAndTheCliPrintsTheirStates() throws Exception {
        String token = production();
        Path bulk = Files.createTempFile("fts3-cancel", ".json");
        Files.writeString(bulk, "{\"files\":[" + silentCopy("c1", token) + "," + silentCopy("c2", token) + "," + silentCopy("c3", token) + "]}");
        Fts3Client.Result submitted = fts("transfer-submit", token, "-f", bulk.toString());
        Files.delete(bulk);
        String job = Fts3Client.jobId(submitted).orElseThrow(() -> new AssertionError(submitted.toString()));
        long[] fileIds = fileIds(job, token);
        Fts3Client.Result listed = fts("transfer-list", token);
        assertTrue(listed.output().contains("Request ID: " + job), "a queued job is listed: " + listed);

        Fts3Client.Result one = fts("transfer-cancel", token, job + ":" + fileIds[0]);
        assertTrue(one.ok(), one.toString());
        assertEquals("CANCELED", one.output().strip(), one.toString());
        Fts3Client.Result two = fts("transfer-cancel", token, job + ":" + fileIds[0] + "," + fileIds[1]);
        assertTrue(two.ok(), two.toString());
        assertEquals(List.of("CANCELED", "CANCELED"), two.output().strip().lines().toList(), two.toString());
        Fts3Client.Result all = fts("transfer-cancel", token, job);
        assertTrue(all.ok(), all.toString());
        assertEquals("CANCELED", all.output().strip(), all.toString());
        assertTrue(fts("transfer-status", token, job).output().contains("Status: CANCELED"));
        // a finished job stays finished: the CLI prints its final state
        assertEquals("FINISHED", fts("transfer-cancel", token, finishedJob).output().strip());
    }

    @Test
    @Order(6)
    void aMemberWithoutTheProductionGroupReadsButMayNotSubmit() throws Exception {
        // no fts scope either (the stack lets that scope submit, as Rucio's tokens carry it): the group alone counts
        String member = iam.mint(iam.wlcgClaims("bob", AUDIENCE, "storage.read:/", List.of("/atlas"), Duration.ofHours(1)).build());
        assertTrue(fts("transfer-status", member, finishedJob).output().contains("Status: FINISHED"));
        Fts3Client.Result refused = fts("transfer-submit", member, nginx.url("/se-a/cli/one.dat"), nginx.url("/se-b/cli/bob.dat"));
        assertFalse(refused.ok(), refused.toString());
        assertTrue(refused.output().contains("Unauthorized") && refused.output().contains("FORBIDDEN"), refused.toString());
    }

    @Test
    @Order(7)
    void theIssuersKeysRotateWithoutARestartAndTheRemovedKeyIsRefused() throws Exception {
        String beforeRotation = production();
        assertTrue(fts("whoami", beforeRotation).ok());
        ServiceProcess schedulerProcess = stack.service(ServiceSpec.SCHEDULER);
        long pid = schedulerProcess.pid();
        int fetches = iam.jwksRequests();
        Thread.sleep(1100); // past the minimum refetch interval the stack runs with

        String newKid = iam.rotate(); // the old key leaves the JWKS, the new one is served alone
        String afterRotation = production();
        Fts3Client.Result status = fts("transfer-status", afterRotation, finishedJob);
        assertTrue(status.output().contains("Status: FINISHED"), newKid + ": " + status);
        assertTrue(iam.jwksRequests() > fetches, "the scheduler fetched the key set again for kid " + newKid);
        assertEquals(pid, schedulerProcess.pid(), "nothing was restarted");

        Thread.sleep(1100);
        Fts3Client.Result removed = fts("transfer-status", beforeRotation, finishedJob);
        assertRefused(removed, "TOKEN_UNKNOWN_KEY");
    }

    @Test
    @Order(8)
    void expiredWrongAudienceAndUnknownIssuerTokensAre401WithTheirReason() throws Exception {
        assertRefused(fts("whoami", iam.mint(iam.wlcgClaims("alice", AUDIENCE, SCOPE, PRODUCTION, Duration.ofMinutes(-10)).build())),
                "TOKEN_EXPIRED");
        assertRefused(fts("whoami", iam.mint(iam.wlcgClaims("alice", "https://other-fts.example", SCOPE, PRODUCTION, Duration.ofHours(1)).build())),
                "TOKEN_WRONG_AUDIENCE");
        try (TestTokenIssuer stranger = TestTokenIssuer.start("https://iam.elsewhere.example/")) {
            assertRefused(fts("whoami", stranger.mint(stranger.wlcgClaims("mallory", AUDIENCE, SCOPE, PRODUCTION, Duration.ofHours(1)).build())),
                    "TOKEN_UNKNOWN_ISSUER");
        }
        // and the submission that carried such a token stored nothing
        String expired = iam.mint(iam.wlcgClaims("alice", AUDIENCE, SCOPE, PRODUCTION, Duration.ofMinutes(-10)).build());
        assertRefused(fts("transfer-submit", expired, nginx.url("/se-a/cli/one.dat"), nginx.url("/se-b/cli/expired.dat")), "TOKEN_EXPIRED");
        assertFalse(Files.exists(nginx.file("/se-b/cli/expired.dat")));
    }

    @Test
    @Order(9)
    void theDevIssuersWlcgProfileTokenIsAcceptedAsFerryUpConfiguresIt() throws Exception {
        // what ./ferry token --wlcg --vo atlas mints: VO by group, scope fts, WLCG's any-audience
        String dev = stack.tokens().mintWlcg(DevTokens.WlcgClaims.of("dev-user", "atlas"));
        Fts3Client.Result whoami = fts("whoami", dev);
        assertTrue(whoami.ok() && whoami.output().contains("VO: atlas"), whoami.toString());
        writeRandom("/se-a/dev/wlcg.dat", 50_000, 3);
        Fts3Client.Result submitted = fts("transfer-submit", dev, "-b", "-i", "1", nginx.url("/se-a/dev/wlcg.dat"), nginx.url("/se-b/dev/wlcg.dat"));
        assertTrue(submitted.output().contains("Job finished with state FINISHED"), submitted.toString());
    }

    /** The CLI failed, saying Unauthorized and the scheduler's reason. */
    private String admin() {
        return stack.tokens().mint(DevTokens.Claims.of("it-admin", null, "transfer:admin"));
    }

    /**
     * fts-rest-ban as FTS3 admins run it: an SE ban (named as FTS3 names SEs, scheme://host:port) cancels the queued
     * job on it and the CLI lists that job; a submission to it is refused until the unban; a user ban cancels the
     * user's unfinished job and refuses its submissions until the unban.
     */
    @Test
    @Order(10)
    void theBanCliBansAndUnbansAnSeAndAUser() throws Exception {
        String silent = "http://127.0.0.1:" + silentSe.getLocalPort();
        String token = production();
        Path one = Files.createTempFile("fts3-ban", ".json");
        Files.writeString(one, "{\"files\":[" + silentCopy("ban1", token) + "]}");
        String queued = Fts3Client.jobId(fts("transfer-submit", token, "-f", one.toString())).orElseThrow();
        Fts3Client.Result banned = fts("ban", admin(), "--storage", silent);
        assertTrue(banned.ok(), banned.toString());
        assertTrue(banned.output().contains("Affected jobs:") && banned.output().contains(queued), banned.toString());
        assertTrue(fts("transfer-status", token, queued).output().contains("Status: CANCELED"));
        try {
            Fts3Client.Result refused = fts("transfer-submit", token, "-f", one.toString());
            assertFalse(refused.ok(), refused.toString());
            assertTrue(refused.output().contains("banned"), refused.toString());
        } finally {
            Fts3Client.Result unbanned = fts("ban", admin(), "--storage", silent, "--unban");
            assertTrue(unbanned.ok(), unbanned.toString());
        }
        String again = Fts3Client.jobId(fts("transfer-submit", token, "-f", one.toString())).orElseThrow();

        // a user ban: mallory's unfinished job is cancelled, its next submission refused until the unban
        String mallory = iam.mint(iam.wlcgClaims("mallory", AUDIENCE, SCOPE, PRODUCTION, Duration.ofHours(1)).build());
        Files.writeString(one, "{\"files\":[" + silentCopy("ban2", mallory) + "]}");
        String hers = Fts3Client.jobId(fts("transfer-submit", mallory, "-f", one.toString())).orElseThrow();
        Fts3Client.Result userBan = fts("ban", admin(), "--user", "mallory");
        assertTrue(userBan.ok() && userBan.output().contains(hers), userBan.toString());
        assertTrue(fts("transfer-status", mallory, hers).output().contains("Status: CANCELED"));
        try {
            assertFalse(fts("transfer-submit", mallory, "-f", one.toString()).ok());
        } finally {
            assertTrue(fts("ban", admin(), "--user", "mallory", "--unban").ok());
        }
        assertTrue(Fts3Client.jobId(fts("transfer-submit", mallory, "-f", one.toString())).isPresent());
        Files.delete(one);
        fts("transfer-cancel", token, again);
    }

    private static void assertRefused(Fts3Client.Result result, String code) {
        assertFalse(result.ok(), result.toString());
        assertTrue(result.output().contains("Unauthorized") && result.output().contains(code), code + " expected: " + result);
    }

    private String silentCopy(String name, String token) {
        return "{\"sources\":[\"http://127.0.0.1:" + silentSe.getLocalPort() + "/data/" + name + "\"],\"destinations\":[\""
                + nginx.url("/se-b/cancel/" + name) + "\"],\"source_tokens\":[\"" + token + "\"],\"destination_tokens\":[\"" + token + "\"]}";
    }

    private long[] fileIds(String job, String token) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(scheduler + "/jobs/" + job + "/files"))
                .header("Authorization", "Bearer " + token).timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        List<Long> ids = new ArrayList<>();
        JSON.readTree(r.body()).forEach(f -> ids.add(f.get("file_id").asLong()));
        return ids.stream().mapToLong(Long::longValue).toArray();
    }

    private void registerSe(String name, String baseUrl) throws Exception {
        String admin = stack.tokens().mint(DevTokens.Claims.of("it-admin", null, "transfer:admin"));
        String body = "{\"site\":\"" + name + "-SITE\",\"baseUrls\":{\"" + URI.create(baseUrl).getScheme() + "\":\"" + baseUrl + "\"},"
                + "\"access\":{\"rules\":[{\"vo\":\"atlas\",\"read\":true,\"write\":true}]}}";
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(scheduler + "/endpoints/" + name))
                .header("Authorization", "Bearer " + admin).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)).timeout(Duration.ofSeconds(20)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertTrue(r.statusCode() == 200 || r.statusCode() == 201, r.body());
    }

    private byte[] writeRandom(String path, int size, long seed) throws Exception {
        Path file = nginx.file(path);
        Files.createDirectories(file.getParent());
        byte[] data = new byte[size];
        new Random(seed).nextBytes(data);
        Files.write(file, data);
        return Arrays.copyOf(data, data.length);
    }
}
