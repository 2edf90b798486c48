package io.ferry.cli.transfer;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TransferListTest {

    @Test
    void linesTakeAnOptionalSizeAndChecksum() {
        List<ObjectNode> files = TransferList.parse("""
                # a comment, then a blank line

                https://a.example/f1 https://b.example/f1
                https://a.example/f2  https://b.example/f2  2000
                https://a.example/f3 https://b.example/f3 10MB adler32:0A1B2C3D
                handle:21.T1/x https://b.example/x adler32:ff
                https://a.example/f5 https://b.example/f5 MD5:9E107D9D372BB6826BD81D3542A419D6
                """);
        assertEquals(5, files.size());
        assertEquals("https://a.example/f1", files.get(0).get("sources").get(0).asText());
        assertEquals("https://b.example/f1", files.get(0).get("destinations").get(0).asText());
        assertFalse(files.get(0).has("filesize"));
        assertEquals(2000, files.get(1).get("filesize").asLong());
        assertEquals(10_000_000, files.get(2).get("filesize").asLong());
        assertEquals("ADLER32:0a1b2c3d", files.get(2).get("checksum").asText());
        assertEquals("handle:21.T1/x", files.get(3).get("sources").get(0).asText());
        assertEquals("ADLER32:ff", files.get(3).get("checksum").asText());
        assertFalse(files.get(3).has("filesize"));
        assertEquals("MD5:9e107d9d372bb6826bd81d3542a419d6", files.get(4).get("checksum").asText());
    }

    @Test
    void badLinesNameTheirLineNumber() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TransferList.parse("a b\nonly-one\n")).getMessage().startsWith("line 2:"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TransferList.parse("a b c d e")).getMessage().startsWith("line 1:"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TransferList.parse("a b md5:abc")).getMessage().contains("adler32"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TransferList.parse("a b adler32:1 100")).getMessage().contains("SIZE comes before"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TransferList.parse("a b 1.5")).getMessage().contains("whole number"));
    }

    @Test
    void fts3BulkJsonIsTakenAsItIs() {
        List<ObjectNode> files = TransferList.parse("""
                {"Files": [{"sources": ["gsiftp://a/f"], "destinations": ["https://b/f"], "filesize": 12, "activity": "Express",
                            "metadata": {"k": "v"}, "selection_strategy": "auto"}]}
                """);
        assertEquals(1, files.size());
        assertEquals("Express", files.get(0).get("activity").asText());
        assertEquals("v", files.get(0).get("metadata").get("k").asText());
        assertEquals("auto", files.get(0).get("selection_strategy").asText());
        assertEquals(1, TransferList.parse("{\"files\": [{\"sources\": [\"a\"], \"destinations\": [\"b\"]}]}").size());
        assertThrows(IllegalArgumentException.class, () -> TransferList.parse("{\"Files\": [{\"sources\": \"a\"}]}"));
        assertThrows(IllegalArgumentException.class, () -> TransferList.parse("{\"Files\": [ broken"));
    }

    @Test
    void longListsAreSplitInOrder() {
        List<ObjectNode> files = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            files.add(TransferList.file("s" + i, "d" + i, null, null));
        }
        List<List<ObjectNode>> jobs = TransferList.split(files, 10);
        assertEquals(List.of(10, 10, 5), jobs.stream().map(List::size).toList());
        assertEquals("s20", jobs.get(2).get(0).get("sources").get(0).asText());
        assertEquals(1, TransferList.split(files, 25).size());
    }

    @Test
    void eachPartGetsTheParametersAndItsOwnSid() {
        List<ObjectNode> files = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            files.add(TransferList.file("s" + i, "d" + i, null, null));
        }
        files.get(0).put("activity", "Own");
        files.get(0).put("scitag", 100);
        SubmitOptions options = new SubmitOptions(true, 3, null, 5, "Express", "both", "12h", "{\"run\": 42}", "batch7", 2 << 6 | 9, "2026-12-07T18:00:00Z");
        List<ObjectNode> bodies = options.bodies(files, 2);
        assertEquals(3, bodies.size());
        assertEquals("batch7-1", bodies.get(0).get("params").get("sid").asText());
        assertEquals("batch7-3", bodies.get(2).get("params").get("sid").asText());
        assertEquals("deterministic", bodies.get(2).get("params").get("id_generator").asText());
        assertEquals("Own", bodies.get(0).get("files").get(0).get("activity").asText());
        assertEquals("Express", bodies.get(0).get("files").get(1).get("activity").asText());
        // --scitag goes into each file, as FTS3's client puts a job-level one; a file's own label stays
        assertEquals(100, bodies.get(0).get("files").get(0).get("scitag").asInt());
        assertEquals(137, bodies.get(2).get("files").get(0).get("scitag").asInt());
        assertFalse(bodies.get(0).get("params").has("scitag"), "FTS3's server reads no job-level scitag");
        IllegalArgumentException low = assertThrows(IllegalArgumentException.class,
                () -> new SubmitOptions(false, null, null, null, null, null, null, null, null, 64, null));
        assertTrue(low.getMessage().contains("65 to 65535"), low.getMessage());
        assertEquals("43200s", bodies.get(1).get("params").get("max_time_in_queue").asText());
        // every part of a split list keeps the deadline
        assertEquals("2026-12-07T18:00:00Z", bodies.get(2).get("params").get("deadline").asText());
        assertEquals(42, bodies.get(1).get("params").get("job_metadata").get("run").asInt());
        assertTrue(bodies.get(1).get("params").get("overwrite").asBoolean());
        assertEquals("batch7", new SubmitOptions(false, null, null, null, null, null, null, "plain text", "batch7", null, null)
                .bodies(files, 10).get(0).get("params").get("sid").asText());
        assertEquals("plain text", new SubmitOptions(false, null, null, null, null, null, null, "plain text", null, null, null)
                .bodies(files, 10).get(0).get("params").get("job_metadata").asText());
    }

    @Test
    void deadlinesAreTimesWithAnOffsetOrIntervalsFromNow() {
        java.time.Instant now = java.time.Instant.parse("2026-12-06T10:15:30.250Z");
        assertEquals("2026-12-06T12:15:30Z", Deadlines.resolve("2h", now));
        assertEquals("2026-12-07T17:00:00Z", Deadlines.resolve("2026-12-07T18:00:00+01:00", now));
        for (String wrong : new String[] {"tomorrow", "2026-12-07T18:00:00", "2026-13-07T18:00:00Z", ""}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Deadlines.resolve(wrong, now), wrong);
            assertTrue(e.getMessage().contains("no deadline"), e.getMessage());
        }
    }
}
