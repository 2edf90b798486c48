package io.ferry.scheduler.engine.tasks;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** dst_file goes into the file's metadata as FTS3's url-copy puts it there (DestFile::appendDestFileToFileMetadata). */
class DestinationReportTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static ObjectNode dstFile() {
        return JSON.createObjectNode().put("file_size", 10).put("checksum_type", "ADLER32").put("checksum_value", "abc123ab")
                .put("file_on_tape", false).put("file_on_disk", true);
    }

    @Test
    void anObjectKeepsItsFieldsAndGainsDstFile() {
        assertEquals("{\"request_id\":\"r1\",\"scope\":\"user.alice\",\"dst_file\":{\"file_size\":10,\"checksum_type\":\"ADLER32\","
                        + "\"checksum_value\":\"abc123ab\",\"file_on_tape\":false,\"file_on_disk\":true}}",
                DestinationReport.withDstFile(JSON, "{\"request_id\":\"r1\",\"scope\":\"user.alice\"}", dstFile()).toString());
    }

    @Test
    void noMetadataGivesDstFileAlone() {
        assertEquals("{\"dst_file\":" + dstFile() + "}", DestinationReport.withDstFile(JSON, null, dstFile()).toString());
        assertEquals("{\"dst_file\":" + dstFile() + "}", DestinationReport.withDstFile(JSON, "", dstFile()).toString());
        assertEquals("{\"dst_file\":" + dstFile() + "}", DestinationReport.withDstFile(JSON, "null", dstFile()).toString());
    }

    @Test
    void otherMetadataMovesUnderFileMetadata() {
        assertEquals("{\"file_metadata\":\"just text\",\"dst_file\":" + dstFile() + "}",
                DestinationReport.withDstFile(JSON, "\"just text\"", dstFile()).toString());
        assertEquals("{\"file_metadata\":\"not json {\",\"dst_file\":" + dstFile() + "}",
                DestinationReport.withDstFile(JSON, "not json {", dstFile()).toString());
        assertEquals("{\"file_metadata\":[1,2],\"dst_file\":" + dstFile() + "}",
                DestinationReport.withDstFile(JSON, "[1,2]", dstFile()).toString());
    }
}
