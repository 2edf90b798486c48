package io.ferry.scheduler.delivery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A transfer record as FTS3's completion message, read back as Rucio's receiver reads it. */
class Fts3CompletionMessageTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String FILE_METADATA = "{\"request_id\":\"c0c7d290714848f8a1592873a2aafe3f\",\"scope\":\"mc15_13TeV\",\"name\":\"EVNT.pool.root.1\","
            + "\"src_rse\":\"SITE-A_DATADISK\",\"dst_rse\":\"SITE-B_DATADISK\",\"filesize\":10565043,\"adler32\":\"68e800b9\",\"md5\":null,"
            + "\"activity\":\"Data Consolidation\"}";
    static final Fts3CompletionMessage.Job JOB = new Fts3CompletionMessage.Job("/DC=ch/CN=Robot: ATLAS Data Management", 2, 3600,
            "{\"issuer\":\"rucio\",\"multi_sources\":false}", FILE_METADATA, false, true, false, true, null, 2 << 6 | 9, false, false);

    @Test
    void aFailedAttemptCarriesFts3sFieldsTypesAndFormatsAndRucioMarksItsRequestFailed() throws Exception {
        String record = "{\"id\":\"j/7/2\",\"job_id\":\"f9b18c10-0132-51df-b341-3031a0a9ea39\",\"file_id\":7,\"attempt\":2,\"vo\":\"atlas\","
                + "\"activity\":\"Data Consolidation\",\"source_se\":\"SITE-A\",\"dest_se\":\"SITE-B\",\"source_site\":\"SITE-A-SITE\","
                + "\"source_url\":\"davs://se-a.test:2880/atlas/f1\",\"dest_url\":\"https://se-b.test/atlas/f1\",\"filesize\":10565043,"
                + "\"bytes_transferred\":4096,\"streams\":1,\"prepare_started_at\":\"2017-04-26T14:34:50.323Z\","
                + "\"transfer_started_at\":\"2017-04-26T14:34:52.255Z\",\"transfer_ended_at\":\"2017-04-26T14:35:34.563+00:00\","
                + "\"outcome\":\"FAILED\",\"error_code\":\"SOURCE_NOT_FOUND\",\"error_phase\":\"transfer\","
                + "\"error_message\":\"source \\\"f1\\\" is gone:\\nHTTP 404\",\"retryable\":false}";
        JsonNode m = Fts3CompletionMessage.build(JSON, JSON.readTree(record), JOB, "https://ferry.test:8446", Instant.parse("2017-04-26T14:36:00Z"));

        assertEquals("2017-04-26-1434__se-a.test__se-b.test__7__f9b18c10-0132-51df-b341-3031a0a9ea39", m.get("tr_id").asText());
        assertEquals(7, m.get("file_id").asLong());
        assertTrue(m.get("file_id").isIntegralNumber() && m.get("tr_timestamp_start").isIntegralNumber() && m.get("timestamp_tr_st").isIntegralNumber());
        assertEquals(1493217290323L, m.get("tr_timestamp_start").asLong(), "milliseconds since the epoch");
        assertEquals(1493217334563L, m.get("tr_timestamp_complete").asLong());
        assertEquals(1493217292255L, m.get("timestamp_tr_st").asLong());
        assertEquals("davs://se-a.test", m.get("src_se").asText());
        assertEquals("davs://se-a.test__https://se-b.test", m.get("t_channel").asText());
        assertEquals("Error", m.get("t_final_transfer_state").asText());
        assertEquals(0, m.get("t_final_transfer_state_flag").asInt());
        assertEquals(2, m.get("t_error_code").asInt(), "ENOENT");
        assertEquals("SOURCE", m.get("tr_error_scope").asText());
        assertEquals("TRANSFER", m.get("t_failure_phase").asText());
        assertEquals("source f1 is gone: HTTP 404", m.get("t__error_message").asText(), "quotes and newlines go, as FTS3 does");
        assertEquals(1, m.get("retry").asInt());
        assertEquals(2, m.get("retry_max").asInt());
        assertEquals(3600, m.get("t_timeout").asInt());
        assertTrue(m.get("job_metadata").isObject() && m.get("file_metadata").isObject(), "metadata as the JSON submitted");
        assertTrue(m.get("job_m_replica").isBoolean() && m.get("transfer_lasthop").asBoolean() && !m.get("is_recoverable").asBoolean());
        assertEquals("SITE-A-SITE", m.get("src_site_name").asText());
        assertEquals("", m.get("dst_site_name").asText());
        assertEquals(10565043, m.get("f_size").asLong());
        assertEquals("https://se-b.test/atlas/f1", m.get("final_destination").asText());
        assertTrue(m.get("scitag").isIntegralNumber());
        assertEquals(137, m.get("scitag").asInt(), "the file's SciTag flow label, a number as FTS3 sends it");

        Map<String, Object> rucio = RucioReceiver.onMessage(JSON.writeValueAsString(m));
        assertEquals("FAILED", rucio.get("new_state"));
        assertEquals("f9b18c10-0132-51df-b341-3031a0a9ea39", rucio.get("transfer_id"));
        assertEquals("c0c7d290714848f8a1592873a2aafe3f", rucio.get("request_id"));
        assertEquals("https://ferry.test:8446", rucio.get("external_host"));
        assertEquals(44.24, (double) rucio.get("duration"), 1e-9);
        assertEquals(Instant.parse("2017-04-26T14:35:34.563Z"), rucio.get("transferred_at"));
    }

    @Test
    void aFinishedFileIsOkAndAMessageWithoutTheJobStillParses() throws Exception {
        String record = "{\"id\":\"j/8/1\",\"job_id\":\"a1\",\"file_id\":8,\"attempt\":1,\"vo\":\"cms\",\"activity\":\"default\","
                + "\"source_url\":\"https://a.test/f\",\"dest_url\":\"https://b.test/f\",\"bytes_transferred\":10,\"streams\":2,"
                + "\"transfer_started_at\":\"2026-01-01T00:00:00.000Z\",\"transfer_ended_at\":\"2026-01-01T00:00:01.500Z\","
                + "\"throughput_bytes_per_s\":6.67,\"outcome\":\"FINISHED\"}";
        JsonNode m = Fts3CompletionMessage.build(JSON, JSON.readTree(record), JOB, "e", Instant.now());
        assertEquals("Ok", m.get("t_final_transfer_state").asText());
        assertEquals(1, m.get("t_final_transfer_state_flag").asInt());
        assertEquals(0, m.get("t_error_code").asInt());
        assertEquals("", m.get("t__error_message").asText());
        assertEquals(1500, m.get("transfer_time").asLong());
        assertEquals(2, m.get("nstreams").asInt());
        assertEquals("DONE", RucioReceiver.onMessage(JSON.writeValueAsString(m)).get("new_state"));

        JsonNode gone = Fts3CompletionMessage.build(JSON, JSON.readTree(record), null, "e", Instant.now());
        assertEquals("", gone.get("job_metadata").asText());
        assertEquals("", gone.get("user_dn").asText());
        assertNull(RucioReceiver.onMessage(JSON.writeValueAsString(gone)), "no rucio issuer: Rucio leaves it");
        assertFalse(gone.get("job_multihop").asBoolean());
        assertEquals(0, gone.get("scitag").asInt(), "FTS3's 0: no label known");
        assertFalse(m.get("overwrite_on_disk_flag").asBoolean());
        Fts3CompletionMessage.Job onDisk = new Fts3CompletionMessage.Job(JOB.userDn(), JOB.retryMax(), JOB.timeout(),
                JOB.jobMetadata(), JOB.fileMetadata(), false, true, false, true, null, null, true, false);
        assertTrue(Fts3CompletionMessage.build(JSON, JSON.readTree(record), onDisk, "e", Instant.now()).get("overwrite_on_disk_flag").asBoolean(),
                "FTS3's flag for a copy that ran with overwrite_when_only_on_disk");
        assertFalse(m.get("is_archiving").asBoolean());
        Fts3CompletionMessage.Job toTape = new Fts3CompletionMessage.Job(JOB.userDn(), JOB.retryMax(), JOB.timeout(),
                JOB.jobMetadata(), JOB.fileMetadata(), false, true, false, true, null, null, false, true);
        assertTrue(Fts3CompletionMessage.build(JSON, JSON.readTree(record), toTape, "e", Instant.now()).get("is_archiving").asBoolean(),
                "a copy the job archive-monitors: Rucio's receiver leaves it to the poller");
    }

    /**
     * The job_state FTS3's url-copy puts in each message: a multi-replica file's failed source that another replaces is
     * ACTIVE, which Rucio's receiver skips (it would mark the request failed while the job goes on), and so is a
     * multihop chain's finished hop before the last.
     */
    @Test
    void theJobStateIsWhatUrlCopyReportsNotTheJobsRow() {
        Fts3CompletionMessage.Job plain = JOB;
        Fts3CompletionMessage.Job replicaLeft = new Fts3CompletionMessage.Job(JOB.userDn(), 2, 3600, JOB.jobMetadata(), JOB.fileMetadata(),
                true, false, false, true, null, null, false, false);
        Fts3CompletionMessage.Job lastReplica = new Fts3CompletionMessage.Job(JOB.userDn(), 2, 3600, JOB.jobMetadata(), JOB.fileMetadata(),
                true, true, false, true, null, null, false, false);
        Fts3CompletionMessage.Job firstHop = new Fts3CompletionMessage.Job(JOB.userDn(), 2, 3600, JOB.jobMetadata(), JOB.fileMetadata(),
                false, true, true, false, null, null, false, false);
        Fts3CompletionMessage.Job lastHop = new Fts3CompletionMessage.Job(JOB.userDn(), 2, 3600, JOB.jobMetadata(), JOB.fileMetadata(),
                false, true, true, true, null, null, false, false);
        assertEquals("UNKNOWN", Fts3CompletionMessage.jobState(true, plain));
        assertEquals("UNKNOWN", Fts3CompletionMessage.jobState(false, plain));
        assertEquals("ACTIVE", Fts3CompletionMessage.jobState(false, replicaLeft));
        assertEquals("FAILED", Fts3CompletionMessage.jobState(false, lastReplica));
        assertEquals("FINISHED", Fts3CompletionMessage.jobState(true, replicaLeft));
        assertEquals("ACTIVE", Fts3CompletionMessage.jobState(true, firstHop));
        assertEquals("FINISHED", Fts3CompletionMessage.jobState(true, lastHop));
        assertEquals("FAILED", Fts3CompletionMessage.jobState(false, firstHop));
    }

    @Test
    void aCanceledFileIsAnAbortAndLongErrorsAreCutAsFts3CutsThem() throws Exception {
        String record = "{\"job_id\":\"a1\",\"file_id\":9,\"attempt\":1,\"vo\":\"cms\",\"source_url\":\"https://a.test/f\",\"dest_url\":\"https://b.test/f\","
                + "\"bytes_transferred\":0,\"outcome\":\"CANCELED\",\"error_code\":\"CANCELED\",\"error_phase\":\"transfer\","
                + "\"error_message\":\"" + "x".repeat(3000) + "\u00e9\",\"retryable\":false}";
        JsonNode m = Fts3CompletionMessage.build(JSON, JSON.readTree(record), JOB, "e", Instant.parse("2026-01-01T00:00:00Z"));
        assertEquals("Abort", m.get("t_final_transfer_state").asText());
        assertEquals(125, m.get("t_error_code").asInt());
        assertEquals(1024, m.get("t__error_message").asText().length());
        assertEquals(Instant.parse("2026-01-01T00:00:00Z").toEpochMilli(), m.get("tr_timestamp_start").asLong(), "no times: when it was sent");
    }
}
