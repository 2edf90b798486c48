package io.ferry.schema;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TransferRecordSchemaTest {

    static final String FINISHED = "{\"id\":\"j1/1/1\",\"job_id\":\"j1\",\"file_id\":1,\"attempt\":1,\"vo\":\"atlas\",\"activity\":\"Production\","
            + "\"source_se\":\"RAL-ECHO\",\"dest_se\":\"CERN-EOS\",\"source_site\":\"RAL-LCG2\",\"dest_site\":\"CERN-PROD\","
            + "\"filesize\":1000,\"bytes_transferred\":1000,\"streams\":4,\"submitted_at\":\"2026-11-30T21:55:00.000Z\","
            + "\"transfer_started_at\":\"2026-11-30T21:55:01.000Z\",\"transfer_ended_at\":\"2026-11-30T21:55:03.120Z\","
            + "\"throughput_bytes_per_s\":471.7,\"outcome\":\"FINISHED\",\"retryable\":null}";

    @Test
    void aCompleteRecordConforms() {
        assertEquals(java.util.List.of(), TransferRecordSchema.problems(FINISHED));
    }

    @Test
    void unknownFieldsMissingFieldsAndBadValuesDoNot() {
        assertFalse(TransferRecordSchema.problems(FINISHED.replace("\"streams\"", "\"stream_count\"")).isEmpty());
        assertFalse(TransferRecordSchema.problems(FINISHED.replace("\"outcome\":\"FINISHED\"", "\"outcome\":\"DONE\"")).isEmpty());
        assertFalse(TransferRecordSchema.problems(FINISHED.replace("\"bytes_transferred\":1000,", "")).isEmpty());
        assertFalse(TransferRecordSchema.problems(FINISHED.replace("RAL-ECHO", "RAL ECHO")).isEmpty());
        assertFalse(TransferRecordSchema.problems(FINISHED.replace("2026-11-30T21:55:03.120Z", "yesterday")).isEmpty());
        assertTrue(TransferRecordSchema.problems("[").get(0).startsWith("not JSON"));
    }
}
