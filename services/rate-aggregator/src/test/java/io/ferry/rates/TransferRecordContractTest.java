package io.ferry.rates;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.ferry.rates.api.TransferRecord;
import io.ferry.rates.json.TimestampModule;
import io.ferry.rates.service.RecordValidator;
import io.ferry.schema.TransferRecordSchema;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The transfer record's JSON Schema (services/lib/transfer-record-schema) and what this service takes agree: every
 * record the ingest path accepts conforms, and malformed records are refused by both.
 */
class TransferRecordContractTest {

    static final String FINISHED = "{\"id\":\"j1/1/1\",\"job_id\":\"j1\",\"file_id\":1,\"attempt\":1,\"vo\":\"atlas\",\"activity\":\"Production\","
            + "\"source_se\":\"RAL-ECHO\",\"dest_se\":\"CERN-EOS\",\"source_site\":\"RAL-LCG2\",\"dest_site\":\"CERN-PROD\","
            + "\"source_url\":\"davs://ral.example/f\",\"dest_url\":\"davs://cern.example/f\",\"filesize\":1000,\"bytes_transferred\":1000,"
            + "\"streams\":4,\"submitted_at\":\"2026-11-30T21:55:00.000Z\",\"prepare_started_at\":\"2026-11-30T21:55:00.100Z\","
            + "\"prepare_ended_at\":\"2026-11-30T21:55:00.900Z\",\"transfer_started_at\":\"2026-11-30T21:55:01.000Z\","
            + "\"transfer_ended_at\":\"2026-11-30T21:55:03.120Z\",\"checksum_started_at\":\"2026-11-30T21:55:03.200Z\","
            + "\"checksum_ended_at\":\"2026-11-30T21:55:03.500Z\",\"throughput_bytes_per_s\":471.7,\"outcome\":\"FINISHED\"}";

    static final List<String> ACCEPTED = List.of(
            FINISHED,
            "{\"id\":\"j2/7/3\",\"vo\":\"cms\",\"source_se\":\"FNAL-DCACHE\",\"dest_se\":\"RAL-ECHO\",\"bytes_transferred\":0,"
                    + "\"transfer_started_at\":\"2026-11-30T22:00:00Z\",\"transfer_ended_at\":\"2026-11-30T22:00:09Z\",\"outcome\":\"FAILED\","
                    + "\"error_code\":\"TRANSFER_TIMEOUT\",\"error_phase\":\"transfer\",\"error_message\":\"timed out\\n\\tafter 9 s\",\"retryable\":true}",
            "{\"id\":\"j3/1/1\",\"vo\":\"ops\",\"activity\":null,\"source_se\":\"A\",\"dest_se\":\"B\",\"source_site\":null,\"bytes_transferred\":5,"
                    + "\"submitted_at\":\"2026-11-30T22:00:00.000+01:00\",\"outcome\":\"CANCELED\"}");

    static final List<String> MALFORMED = List.of(
            FINISHED.replace("\"streams\"", "\"stream_count\""),
            FINISHED.replace("\"outcome\":\"FINISHED\"", "\"outcome\":\"DONE\""),
            FINISHED.replace("\"bytes_transferred\":1000,", ""),
            FINISHED.replace("\"vo\":\"atlas\"", "\"vo\":\" \""),
            FINISHED.replace("RAL-ECHO", "RAL ECHO"),
            FINISHED.replace("\"streams\":4", "\"streams\":65"),
            FINISHED.replace("\"filesize\":1000", "\"filesize\":-1"),
            FINISHED.replace("\"outcome\":\"FINISHED\"", "\"outcome\":\"FAILED\",\"error_phase\":\"network\""),
            FINISHED.replace("2026-11-30T21:55:00.000Z", "1969-12-31T23:59:59.000Z"));

    final ObjectMapper json = mapper();
    final RecordValidator validator = new RecordValidator();

    @Test
    void everyAcceptedRecordConformsToTheSchema() {
        for (String record : ACCEPTED) {
            assertEquals(List.of(), takenProblems(record), record);
            assertEquals(List.of(), TransferRecordSchema.problems(record), record);
        }
    }

    @Test
    void theSchemaRefusesWhatIngestRefuses() {
        for (String record : MALFORMED) {
            assertFalse(takenProblems(record).isEmpty(), "ingest takes " + record);
            assertFalse(TransferRecordSchema.problems(record).isEmpty(), "the schema takes " + record);
        }
    }

    /** Why ingest would refuse the record: as it reads it (unknown fields fail), then RecordValidator's rules. */
    List<String> takenProblems(String record) {
        try {
            TransferRecord r = json.readValue(record, TransferRecord.class);
            return validator.check(r, validator.latestAllowed()).stream().map(e -> e.field() + ": " + e.message()).toList();
        } catch (Exception e) {
            return List.of(e.getMessage());
        }
    }

    static ObjectMapper mapper() {
        ObjectMapper m = new ObjectMapper().registerModule(new JavaTimeModule());
        new TimestampModule().customize(m);
        return m;
    }
}
