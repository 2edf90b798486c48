package io.ferry.cli.watch;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.ferry.cli.client.EventStream;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JobProgressTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void countsBytesThroughputEtaAndFailuresOnce() throws Exception {
        Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
        JobProgress p = new JobProgress("j1", t0);
        p.files(JSON.readTree("[{\"file_id\":1,\"file_state\":\"SUBMITTED\",\"filesize\":1000},"
                + "{\"file_id\":2,\"file_state\":\"SUBMITTED\",\"filesize\":1000}]"));
        p.event(JSON.readTree("{\"file_id\":1,\"file_state\":\"ACTIVE\",\"job_state\":\"ACTIVE\"}"));
        assertEquals(Map.of("SUBMITTED", 1, "ACTIVE", 1), p.counts());
        assertEquals("ACTIVE", p.jobState());
        p.files(JSON.readTree("[{\"file_id\":1,\"file_state\":\"FINISHED\",\"filesize\":1000,\"bytes_transferred\":1000},"
                + "{\"file_id\":2,\"file_state\":\"ACTIVE\",\"filesize\":1000,\"bytes_transferred\":500}]"));
        Instant t10 = t0.plusSeconds(10);
        assertEquals(1500, p.bytesDone());
        assertEquals(2000, p.bytesTotal());
        assertEquals(150.0, p.throughput(t10), 0.001);
        assertEquals(4, p.eta(t10).orElseThrow().toSeconds());
        assertTrue(p.newFailures().isEmpty());
        assertEquals(List.of("job j1  ACTIVE  10s", "  files  1 ACTIVE  1 FINISHED   (1/2 done)",
                "  [#######################.......]  75%  1.46 KiB / 1.95 KiB  0.2 kB/s  ETA 4s"), ProgressView.block(p, t10));

        p.files(JSON.readTree("[{\"file_id\":1,\"file_state\":\"FINISHED\",\"filesize\":1000},"
                + "{\"file_id\":2,\"file_state\":\"FAILED\",\"filesize\":1000,\"bytes_transferred\":500,\"source_surl\":\"https://a/f2\","
                + "\"dest_surl\":\"https://b/f2\",\"error_code\":\"SOURCE_NOT_FOUND\",\"reason\":\"404 from source\"}]"));
        p.job(JSON.readTree("{\"job_state\":\"FINISHEDDIRTY\"}"));
        assertTrue(p.over());
        assertTrue(p.anyFailed());
        List<JobProgress.Failure> failures = p.newFailures();
        assertEquals(1, failures.size());
        assertEquals("FAILED  job j1 file 2  https://a/f2 -> https://b/f2  [SOURCE_NOT_FOUND] 404 from source", ProgressView.failure("j1", failures.get(0)));
        assertTrue(p.newFailures().isEmpty(), "each failure is reported once");
        assertTrue(p.eta(t10).isEmpty());
        assertEquals("job j1 FINISHEDDIRTY: 1 FINISHED  1 FAILED; 1.46 KiB of 1.95 KiB, 0.2 kB/s in 10s", ProgressView.line(p, t10));
    }

    @Test
    void aJobIsNotOverUntilItsFilesAre() throws Exception {
        JobProgress p = new JobProgress("j2", Instant.now());
        p.job(JSON.readTree("{\"job_state\":\"FINISHED\"}"));
        assertFalse(p.over(), "no files known yet");
        p.event(JSON.readTree("{\"file_id\":1,\"file_state\":\"FINISHED\",\"job_state\":\"FINISHED\"}"));
        assertTrue(p.over());
        assertFalse(p.anyFailed());
    }

    @Test
    void serverSentEventsAreReadByTheirDataLines() {
        List<String> seen = new ArrayList<>();
        EventStream.read(List.of(": keep-alive", "", "event: message", "data: {\"file_id\":1,", "data: \"file_state\":\"ACTIVE\"}", "",
                "data:{\"file_id\":2}", "id: 7", "", "data: not json", "", "data: {\"file_id\":3}").stream(), e -> seen.add(e.toString()));
        assertEquals(List.of("{\"file_id\":1,\"file_state\":\"ACTIVE\"}", "{\"file_id\":2}", "{\"file_id\":3}"), seen);
    }
}
