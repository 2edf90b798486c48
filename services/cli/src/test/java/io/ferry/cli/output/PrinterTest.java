package io.ferry.cli.output;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.ferry.cli.client.ApiProblem;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PrinterTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<Column> COLUMNS = List.of(Column.field("FILE", "file_id"), Column.field("STATE", "file_state"),
            Column.bytes("SIZE", "filesize"), Column.rate("RATE", "throughput"));

    private final JsonNode rows = read("[{\"file_id\":1,\"file_state\":\"FINISHED\",\"filesize\":3145728,\"throughput\":52400000.0},"
            + "{\"file_id\":22,\"file_state\":\"FAILED\",\"filesize\":null,\"reason\":\"a\\tb\"}]");

    @Test
    void tablesAlignColumnsInHumanUnits() {
        assertEquals("""
                FILE  STATE     SIZE      RATE
                1     FINISHED  3.00 MiB  52.4 MB/s
                22    FAILED
                """, print(OutputFormat.TABLE, rows));
    }

    @Test
    void tsvHasRawValuesUnderAHeader() {
        assertEquals("FILE\tSTATE\tSIZE\tRATE\n1\tFINISHED\t3145728\t52400000\n22\tFAILED\t\t\n", print(OutputFormat.TSV, rows));
    }

    @Test
    void jsonAndYamlAreTheAnswerWhole() throws Exception {
        assertEquals(rows, JSON.readTree(print(OutputFormat.JSON, rows)));
        assertEquals(rows, new ObjectMapper(new YAMLFactory()).readTree(print(OutputFormat.YAML, rows)));
    }

    @Test
    void units() {
        assertEquals("512 B", Units.bytes(512));
        assertEquals("1.50 KiB", Units.bytes(1536));
        assertEquals("10.0 GiB", Units.bytes(10L << 30));
        assertEquals("2.50 MB/s", Units.rate(2_500_000));
        assertEquals("1.20 GB/s", Units.rate(1_200_000_000));
        assertEquals("45s", Units.duration(Duration.ofSeconds(45)));
        assertEquals("2m05s", Units.duration(Duration.ofSeconds(125)));
        assertEquals("3h07m", Units.duration(Duration.ofMinutes(187)));
        assertEquals("2d01h", Units.duration(Duration.ofHours(49)));
    }

    @Test
    void problemsReadAsOneLine() {
        JsonNode problem = read("{\"type\":\"about:blank\",\"title\":\"Bad Request\",\"status\":400,\"code\":\"INVALID_JOB\","
                + "\"detail\":\"2 problem(s) with the submission; nothing was stored\",\"errors\":[{\"field\":\"files[0].checksum\","
                + "\"message\":\"expected ADLER32:<1 to 8 hex digits> or MD5:<32 hex digits>, or the algorithm alone\"},{\"field\":\"params.priority\",\"message\":\"a whole number from 1 to 5\"}]}");
        assertEquals("400 INVALID_JOB: 2 problem(s) with the submission; nothing was stored [files[0].checksum: expected ADLER32:<1 to 8 hex digits> or MD5:<32 hex digits>, or the algorithm alone;"
                + " params.priority: a whole number from 1 to 5]", ApiProblem.of("POST", "http://s/jobs", 400, problem, problem.toString()).getMessage());
        assertEquals("502 from GET http://s/x: <html>bad gateway</html>",
                ApiProblem.of("GET", "http://s/x", 502, null, "<html>bad gateway</html>\nmore").getMessage());
    }

    private static String print(OutputFormat format, JsonNode answer) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new Printer(format, new PrintStream(bytes, true, StandardCharsets.UTF_8)).rows(answer, COLUMNS);
        return bytes.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n");
    }

    private static JsonNode read(String s) {
        try {
            return JSON.readTree(s);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
