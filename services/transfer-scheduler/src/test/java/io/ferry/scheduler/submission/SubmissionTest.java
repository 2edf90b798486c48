package io.ferry.scheduler.submission;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ferry.problem.Problem;
import io.ferry.problem.ProblemException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The FTS3 job body as clients send it: what is read from it, and that every wrong field is refused at once with its
 * path (a 400 {@code INVALID_JOB}), while unknown or null params are ignored.
 */
class SubmissionTest {

    static final ObjectMapper JSON = new ObjectMapper();

    static Submission parse(String body) {
        try {
            return Submission.parse(JSON.readTree(body));
        } catch (JsonProcessingException e) {
            throw new AssertionError("the test's body is not JSON: " + body, e);
        }
    }

    static String withParams(String params) {
        return "{\"files\":[{\"sources\":[\"https://ral.example/data/f1\"],\"destinations\":[\"https://cern.example/eos/f1\"]}],"
                + "\"params\":" + params + "}";
    }

    static String withFile(String file) {
        return "{\"files\":[" + file + "]}";
    }

    /** The fields a refused body names, in the order they were found. */
    static List<String> refusedFields(String body) {
        ProblemException e = assertThrows(ProblemException.class, () -> parse(body), "accepted: " + body);
        Problem p = e.problem();
        assertEquals(400, p.status());
        return p.errors().stream().map(Problem.FieldError::field).toList();
    }

    static void refused(String body, String field) {
        ProblemException e = assertThrows(ProblemException.class, () -> parse(body), "accepted: " + body);
        assertEquals(400, e.problem().status());
        assertEquals("INVALID_JOB", e.problem().code(), e.problem().toString());
        assertEquals(List.of(field), e.problem().errors().stream().map(Problem.FieldError::field).toList(), e.problem().toString());
    }

    @Test
    void aBulkJobAsFts3ClientsSendIt() {
        Submission s = parse("""
                {"files": [
                   {"sources": ["https://ral.example/data/f1", "root://ral.example//data/f1"],
                    "destinations": ["https://cern.example/eos/f1"],
                    "metadata": {"lfn": "/atlas/f1"}, "checksum": "ADLER32:1a2b3c4d", "filesize": 1024, "activity": "Production",
                    "selection_strategy": "auto"},
                   {"sources": ["https://ral.example/data/f2"], "destinations": ["https://cern.example/eos/f2"],
                    "metadata": "file2-metadata", "checksum": "adler32:4321", "filesize": 0}],
                 "params": {"verify_checksum": "both", "reuse": true, "overwrite": true, "retry": 3, "retry_delay": 60,
                    "priority": 5, "max_time_in_queue": "12h", "timeout": 3600, "nostreams": 4,
                    "bring_online": 28800, "copy_pin_lifetime": 86400, "spacetoken": null, "multihop": false,
                    "job_metadata": {"campaign": "mc23"}}}
                """);
        assertEquals(2, s.files().size());
        Submission.FileRequest first = s.files().get(0);
        assertEquals(List.of("https://ral.example/data/f1", "root://ral.example//data/f1"), first.sources(), "every source, in order");
        assertEquals(List.of("https://cern.example/eos/f1"), first.destinations());
        assertEquals(1024L, first.filesize());
        assertEquals("ADLER32:1a2b3c4d", first.checksum());
        assertEquals("Production", first.activity());
        assertEquals("{\"lfn\":\"/atlas/f1\"}", first.metadata());
        Submission.FileRequest second = s.files().get(1);
        assertEquals("ADLER32:00004321", second.checksum(), "algorithm upper-cased, value lower-case and padded to 8 digits");
        assertEquals("\"file2-metadata\"", second.metadata(), "metadata is kept as JSON");
        assertEquals(0L, second.filesize());
        assertEquals("default", second.activity());

        assertEquals("both", s.verifyChecksum());
        assertTrue(s.overwrite());
        assertEquals(3, s.retry());
        assertEquals(60, s.retryDelay());
        assertEquals(5, s.priority());
        assertEquals(43_200, s.maxTimeInQueue());
        assertEquals(3600, s.timeout());
        assertEquals(4, s.nostreams());
        assertEquals("{\"campaign\":\"mc23\"}", s.jobMetadata());
        // params Ferry does not act on (reuse, bring_online, copy_pin_lifetime, …) are kept as sent
        JsonNode params = readTree(s.params());
        assertEquals(28800, params.get("bring_online").asInt());
        assertTrue(params.get("reuse").asBoolean());
    }

    /**
     * What FTS3's Python bindings send for {@code new_job([new_transfer(source, destination)])} with every default:
     * a checksum that names the algorithm only (FTS3's own form for "no value given") and {@code retry: -1} (FTS3:
     * no retries), nulls for what is not set.
     */
    @Test
    void theBodyFts3sPythonBindingsSendWithTheirDefaults() {
        Submission s = parse("""
                {"files": [{"sources": ["https://ral.example/data/f1"], "destinations": ["https://cern.example/eos/f1"],
                            "checksum": "ADLER32", "selection_strategy": "auto"}],
                 "delete": null,
                 "params": {"verify_checksum": false, "reuse": null, "spacetoken": null, "bring_online": null,
                    "archive_timeout": null, "copy_pin_lifetime": null, "job_metadata": null, "source_spacetoken": null,
                    "overwrite": false, "multihop": false, "retry": -1, "retry_delay": 0, "priority": null,
                    "strict_copy": false, "max_time_in_queue": null, "timeout": null, "id_generator": "standard",
                    "sid": null, "s3alternate": false, "nostreams": 1, "staging": null}}
                """);
        assertNull(s.files().get(0).checksum(), "no value to compare against: the copy's own ADLER32s are compared");
        assertEquals(0, s.retry(), "no retries");
        assertEquals("none", s.verifyChecksum());
        assertEquals(3, s.priority());
        assertEquals(1, s.nostreams());
        assertFalse(s.overwrite());
        assertNull(parse(withFile("{\"sources\":[\"https://ral.example/data/f1\"],\"destinations\":[\"https://cern.example/eos/f1\"],"
                + "\"checksum\":\"adler32\"}")).files().get(0).checksum());
    }

    @Test
    void whatAJobWithoutParamsGets() {
        Submission s = parse(withFile("{\"sources\":[\"https://ral.example/data/f1\"],\"destinations\":[\"https://cern.example/eos/f1\"]}"));
        assertEquals("none", s.verifyChecksum());
        assertFalse(s.overwrite());
        assertEquals(0, s.retry());
        assertEquals(0, s.retryDelay());
        assertEquals(3, s.priority(), "FTS3's default priority");
        assertNull(s.maxTimeInQueue());
        assertNull(s.timeout());
        assertNull(s.nostreams());
        assertNull(s.jobMetadata());
        assertFalse(s.deterministic());
        assertEquals("{}", s.params());
        Submission.FileRequest f = s.files().get(0);
        assertNull(f.filesize());
        assertNull(f.checksum());
        assertNull(f.metadata());
        assertEquals("default", f.activity());
    }

    @Test
    void nullParamsAreIgnoredAsFts3Does() {
        Submission s = parse(withParams("{\"verify_checksum\":null,\"overwrite\":null,\"retry\":null,\"priority\":null,"
                + "\"max_time_in_queue\":null,\"timeout\":null,\"nostreams\":null,\"id_generator\":null,\"sid\":null,\"job_metadata\":null}"));
        assertEquals("none", s.verifyChecksum());
        assertEquals(3, s.priority());
        assertNull(s.maxTimeInQueue());
        assertNull(s.nostreams());
        assertNull(s.jobMetadata());
        assertFalse(s.deterministic());
    }

    @ParameterizedTest
    @CsvSource({"true,both", "false,none", "'\"true\"',both", "'\"false\"',none", "'\"both\"',both", "'\"b\"',both",
            "'\"source\"',source", "'\"s\"',source", "'\"target\"',target", "'\"t\"',target", "'\"destination\"',target",
            "'\"d\"',target", "'\"none\"',none", "'\"n\"',none", "'\"BOTH\"',both"})
    void verifyChecksumInEverySpellingFts3Accepts(String sent, String mode) {
        assertEquals(mode, parse(withParams("{\"verify_checksum\":" + sent + "}")).verifyChecksum());
    }

    @ParameterizedTest
    @CsvSource({"ADLER32:1a2b3c4d,ADLER32:1a2b3c4d", "adler32:1A2B3C4D,ADLER32:1a2b3c4d", "Adler32:abc,ADLER32:00000abc",
            "ADLER32:0,ADLER32:00000000", "MD5:D41D8CD98F00B204E9800998ECF8427E,MD5:d41d8cd98f00b204e9800998ecf8427e",
            "md5:d41d8cd98f00b204e9800998ecf8427e,MD5:d41d8cd98f00b204e9800998ecf8427e", "md5,MD5"})
    void checksumsAreStoredInOneSpelling(String sent, String stored) {
        String file = "{\"sources\":[\"https://ral.example/data/f1\"],\"destinations\":[\"https://cern.example/eos/f1\"],\"checksum\":\"" + sent + "\"}";
        assertEquals(stored, parse(withFile(file)).files().get(0).checksum());
    }

    /**
     * One algorithm per file, as FTS3's url-copy takes it (split at the first colon) and as Rucio sends it (one
     * ALGORITHM:value its RSEs share): two on one file, a value of the wrong length or not hex, an algorithm Ferry
     * does not verify are refused with the forms it accepts.
     */
    @ParameterizedTest
    @ValueSource(strings = {"MD5:d41d8cd98f00b204e9800998ecf8427", "MD5:d41d8cd98f00b204e9800998ecf8427e0", "MD5:", "MD5:abc",
            "MD5:g41d8cd98f00b204e9800998ecf8427e", "ADLER32:", "ADLER32:123456789", "ADLER32:xyz1", "1a2b3c4d",
            "ADLER32:1a2b 3c4d", "CRC32:1a2b3c4d", "SHA1", "", "ADLER32:1a2b3c4d,MD5:d41d8cd98f00b204e9800998ecf8427e",
            "MD5:d41d8cd98f00b204e9800998ecf8427e;ADLER32:1a2b3c4d"})
    void aChecksumFerryCannotVerifyIsRefused(String sent) {
        String body = withFile("{\"sources\":[\"https://ral.example/data/f1\"],\"destinations\":[\"https://cern.example/eos/f1\"],\"checksum\":\""
                + sent + "\"}");
        refused(body, "files[0].checksum");
        ProblemException e = assertThrows(ProblemException.class, () -> parse(body));
        assertEquals("expected ADLER32:<1 to 8 hex digits> or MD5:<32 hex digits>, or the algorithm alone", e.problem().errors().get(0).message());
    }

    @ParameterizedTest
    @ValueSource(strings = {"12345678", "true", "{\"MD5\":\"d41d8cd98f00b204e9800998ecf8427e\"}", "[\"ADLER32:1a2b3c4d\"]"})
    void aChecksumThatIsNoStringIsRefused(String sent) {
        refused(withFile("{\"sources\":[\"https://ral.example/data/f1\"],\"destinations\":[\"https://cern.example/eos/f1\"],\"checksum\":"
                + sent + "}"), "files[0].checksum");
    }

    @Test
    void numbersMayComeAsStringsAndDurationsWithUnits() {
        Submission s = parse(withParams("{\"priority\":\"4\",\"retry\":\"2\",\"overwrite\":\"true\",\"max_time_in_queue\":168,\"nostreams\":\"16\"}"));
        assertEquals(4, s.priority());
        assertEquals(2, s.retry());
        assertTrue(s.overwrite());
        // FTS3's seconds_from_value: a bare number is hours (Rucio's 168 is a week, not 168 seconds)
        assertEquals(168 * 3600, s.maxTimeInQueue());
        assertEquals(5 * 3600, parse(withParams("{\"max_time_in_queue\":\"5\"}")).maxTimeInQueue());
        assertEquals(3 * 3600, parse(withParams("{\"max_time_in_queue\":\"3h\"}")).maxTimeInQueue());
        assertEquals(16, s.nostreams());
        assertEquals(45, parse(withParams("{\"max_time_in_queue\":\"45s\"}")).maxTimeInQueue());
        assertEquals(1800, parse(withParams("{\"max_time_in_queue\":\"30m\"}")).maxTimeInQueue());
        assertEquals(2 * 86_400, parse(withParams("{\"max_time_in_queue\":\"2d\"}")).maxTimeInQueue());
        assertEquals(7200, parse(withParams("{\"max_time_in_queue\":\" 2H \"}")).maxTimeInQueue());
    }

    @Test
    void aDeadlineIsATimeAheadWithItsOffset() {
        java.time.OffsetDateTime ahead = java.time.OffsetDateTime.now(java.time.ZoneOffset.ofHours(2)).plusHours(3).withNano(0);
        Submission s = parse(withParams("{\"deadline\":\"" + ahead + "\"}"));
        assertEquals(ahead.toInstant(), s.deadline().toInstant());
        assertEquals(java.time.ZoneOffset.UTC, s.deadline().getOffset());
        assertNull(parse(withParams("{\"deadline\":null}")).deadline());
        for (String wrong : List.of("\"" + ahead.toLocalDateTime() + "\"", "\"tomorrow\"", "1765000000", "\"2020-01-01T00:00:00Z\"",
                "\"" + ahead.plusDays(400) + "\"", "{}")) {
            refused(withParams("{\"deadline\":" + wrong + "}"), "params.deadline");
        }
    }

    /** Rucio's build_job_params and _file_from_transfer, with the FTS3 parameters Ferry does not implement. */
    @Test
    void rucioSubmissionsWithParamsFerryDoesNotImplementAreAccepted() {
        Submission s = parse("{\"files\":[{\"sources\":[\"davs://ral.example:443/data/f1\"],\"destinations\":[\"davs://cern.example/eos/f1\"],"
                + "\"metadata\":{\"request_id\":\"r1\",\"md5\":null},\"filesize\":10,\"checksum\":\"ADLER32:0000abcd\","
                + "\"selection_strategy\":\"auto\",\"activity\":\"User Subscriptions\",\"scitag\":145,"
                + "\"staging_metadata\":{\"default\":{\"activity\":\"x\"}}}],"
                + "\"params\":{\"account\":\"root\",\"verify_checksum\":\"both\",\"copy_pin_lifetime\":-1,\"bring_online\":null,"
                + "\"job_metadata\":{\"issuer\":\"rucio\",\"multi_sources\":false},\"overwrite\":true,\"overwrite_when_only_on_disk\":false,"
                + "\"priority\":3,\"s3alternate\":true,\"ipv4\":true,\"ipv6\":false,\"strict_copy\":false,\"reuse\":false,"
                + "\"buffer_size\":0,\"target_qos\":\"disk\",\"max_time_in_queue\":168,\"overwrite_hop\":false,\"archive_timeout\":3600}}");
        assertEquals(1, s.files().size());
        assertEquals("both", s.verifyChecksum());
        assertTrue(s.overwrite());
        assertEquals(168 * 3600, s.maxTimeInQueue());
        assertEquals("{\"issuer\":\"rucio\",\"multi_sources\":false}", s.jobMetadata());
        assertEquals(145, s.files().get(0).scitag(), "Rucio's experiment id << 6 | activity id");
    }

    /** scitag: FTS3's REST server takes a JSON integer from 65 to 65535 per file, or null; anything else is refused. */
    @ParameterizedTest
    @ValueSource(strings = {"64", "65536", "0", "-65", "100.5", "100.0", "\"100\"", "true", "[100]", "{}", "1e3"})
    void aSciTagThatIsNoIntegerFrom65To65535IsRefusedNamingTheFile(String scitag) {
        String file = "{\"sources\":[\"https://ral.example/data/f1\"],\"destinations\":[\"https://cern.example/eos/f1\"]";
        assertEquals(List.of("files[1].scitag"), refusedFields("{\"files\":[" + file + ",\"scitag\":65}," + file + ",\"scitag\":" + scitag + "}]}"));
    }

    @Test
    void aSciTagIsTheFilesOwnAndAJobLevelOneIsIgnoredAsFts3sServerIgnoresIt() {
        String file = "{\"sources\":[\"https://ral.example/data/f1\"],\"destinations\":[\"https://cern.example/eos/f1\"]";
        Submission s = parse("{\"files\":[" + file + ",\"scitag\":65}," + file + ",\"scitag\":65535}," + file + ",\"scitag\":null}," + file
                + "}],\"params\":{\"scitag\":200}}");
        assertEquals(java.util.Arrays.asList(65, 65535, null, null), s.files().stream().map(Submission.FileRequest::scitag).toList());
    }

    /** staging_metadata and archive_metadata: per file, JSON objects of at most 1024 characters as FTS3 takes them. */
    @ParameterizedTest
    @ValueSource(strings = {"\"This is my test archive metadata\"", "[1,2]", "42", "true"})
    void tapeMetadataThatIsNoObjectIsRefusedNamingTheFileAndField(String value) {
        String file = "{\"sources\":[\"https://ral.example/data/f1\"],\"destinations\":[\"https://cern.example/eos/f1\"]";
        assertEquals(List.of("files[0].staging_metadata", "files[1].archive_metadata"),
                refusedFields("{\"files\":[" + file + ",\"staging_metadata\":" + value + "}," + file + ",\"archive_metadata\":" + value + "}]}"));
        String big = "{\"key\":\"" + "x".repeat(FileTapeMetadata.MAX_CHARS) + "\"}";
        assertEquals(List.of("files[0].archive_metadata"), refusedFields("{\"files\":[" + file + ",\"archive_metadata\":" + big + "}]}"));
    }

    @Test
    void tapeMetadataIsTheFilesOwnAsJsonText() {
        String file = "{\"sources\":[\"https://ral.example/data/f1\"],\"destinations\":[\"https://cern.example/eos/f1\"]";
        Submission s = parse("{\"files\":[" + file + ",\"staging_metadata\":{\"default\":{\"activity\":\"T0 Export\"}},"
                + "\"archive_metadata\":{\"family\":\"raw\"}}," + file + ",\"archive_metadata\":null}]}");
        assertEquals(new FileTapeMetadata("{\"default\":{\"activity\":\"T0 Export\"}}", "{\"family\":\"raw\"}"), s.files().get(0).tape());
        assertEquals(FileTapeMetadata.NONE, s.files().get(1).tape());
    }

    @ParameterizedTest
    @ValueSource(strings = {"5", "\"fast\"", "[1]", "true"})
    void paramsThatAreNoObjectAreRefused(String params) {
        assertEquals(List.of("params"), refusedFields("{\"files\":[{\"sources\":[\"https://ral.example/data/f1\"],"
                + "\"destinations\":[\"https://cern.example/eos/f1\"]}],\"params\":" + params + "}"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"\"exists\"|EXISTS", "\"Size\"|SIZE", "2|MTIME", "\"3\"|CHECKSUM", "0|EXISTS", "null|"})
    void aSyncLevelByNameOrGlobusNumberMakesTheJobOverwriteWhatDiffers(String sent, SyncLevel level) {
        Submission s = parse(withParams("{\"sync_level\":" + sent + "}"));
        assertEquals(level, SyncLevel.ofStored(s.params()));
        assertEquals(level != null, s.overwrite(), "a sync job replaces a destination that does not match");
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"newer\"", "4", "-1", "true", "1.5", "{}", "\"\""})
    void aWrongSyncLevelIsRefusedByName(String sent) {
        refused(withParams("{\"sync_level\":" + sent + "}"), "params.sync_level");
    }

    @Test
    void aSyncLevelIsNotForMultihopJobs() {
        String body = "{\"files\":[{\"sources\":[\"https://a.example/f\"],\"destinations\":[\"https://b.example/f\"]},"
                + "{\"sources\":[\"https://b.example/f\"],\"destinations\":[\"https://c.example/f\"]}],"
                + "\"params\":{\"multihop\":true,\"sync_level\":\"size\"}}";
        refused(body, "params.sync_level");
    }

    @Test
    void unmanagedTokensIsAFlag() {
        parse(withParams("{\"unmanaged_tokens\":true}"));
        refused(withParams("{\"unmanaged_tokens\":\"sometimes\"}"), "params.unmanaged_tokens");
    }

    @Test
    void aZeroIntervalIsNoLimitAsInFts3() {
        assertNull(parse(withParams("{\"max_time_in_queue\":0}")).maxTimeInQueue());
        assertNull(parse(withParams("{\"max_time_in_queue\":\"0m\"}")).maxTimeInQueue());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"priority\":0}|params.priority", "{\"priority\":6}|params.priority", "{\"priority\":2.5}|params.priority",
            "{\"priority\":\"high\"}|params.priority", "{\"retry\":101}|params.retry", "{\"retry\":-2}|params.retry",
            "{\"retry\":\"many\"}|params.retry",
            "{\"retry_delay\":-1}|params.retry_delay", "{\"retry_delay\":86401}|params.retry_delay",
            "{\"nostreams\":0}|params.nostreams", "{\"nostreams\":17}|params.nostreams", "{\"timeout\":0}|params.timeout",
            "{\"timeout\":604801}|params.timeout", "{\"overwrite\":\"yes\"}|params.overwrite", "{\"overwrite\":1}|params.overwrite",
            "{\"verify_checksum\":\"maybe\"}|params.verify_checksum", "{\"verify_checksum\":1}|params.verify_checksum",
            "{\"max_time_in_queue\":-1}|params.max_time_in_queue", "{\"max_time_in_queue\":\"-1\"}|params.max_time_in_queue",
            "{\"max_time_in_queue\":\"367d\"}|params.max_time_in_queue", "{\"max_time_in_queue\":8785}|params.max_time_in_queue",
            "{\"max_time_in_queue\":1.5}|params.max_time_in_queue", "{\"max_time_in_queue\":\"1w\"}|params.max_time_in_queue",
            "{\"max_time_in_queue\":\"12 h\"}|params.max_time_in_queue", "{\"id_generator\":\"random\"}|params.id_generator",
            "{\"id_generator\":\"deterministic\"}|params.sid", "{\"id_generator\":\"deterministic\",\"sid\":\"  \"}|params.sid",
            "{\"priority\":99999999999}|params.priority"})
    void aWrongParamIsRefusedByName(String params, String field) {
        refused(withParams(params), field);
    }

    @Test
    void jobMetadataIsLimitedTo16KiB() {
        String big = "x".repeat(16_384);
        refused(withParams("{\"job_metadata\":\"" + big + "\"}"), "params.job_metadata");
        assertEquals(16_384, parse(withParams("{\"job_metadata\":\"" + "x".repeat(16_382) + "\"}")).jobMetadata().length());
    }

    @Test
    void deterministicIdsNameTheSameJobForTheSameSidAndVo() {
        Submission s = parse(withParams("{\"id_generator\":\"deterministic\",\"sid\":\"run-42\"}"));
        assertTrue(s.deterministic());
        assertEquals(s.jobId("atlas"), parse(withParams("{\"id_generator\":\"deterministic\",\"sid\":\"run-42\"}")).jobId("atlas"));
        assertNotEquals(s.jobId("atlas"), s.jobId("cms"), "another VO's sid is another job");
        assertNotEquals(s.jobId("atlas"), parse(withParams("{\"id_generator\":\"deterministic\",\"sid\":\"run-43\"}")).jobId("atlas"));
        Submission standard = parse(withParams("{\"id_generator\":\"standard\",\"sid\":\"run-42\"}"));
        assertNotEquals(standard.jobId("atlas"), standard.jobId("atlas"), "standard ids are fresh each time");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"destinations\":[\"https://cern.example/eos/f1\"]}|files[0].sources",
            "{\"sources\":[],\"destinations\":[\"https://cern.example/eos/f1\"]}|files[0].sources",
            "{\"sources\":\"https://ral.example/data/f1\",\"destinations\":[\"https://cern.example/eos/f1\"]}|files[0].sources",
            "{\"sources\":[\"\"],\"destinations\":[\"https://cern.example/eos/f1\"]}|files[0].sources",
            "{\"sources\":[42],\"destinations\":[\"https://cern.example/eos/f1\"]}|files[0].sources",
            "{\"sources\":[\"https://ral.example/data/f1\"]}|files[0].destinations",
            "{\"sources\":[\"https://ral.example/data/f1\"],\"destinations\":[null]}|files[0].destinations",
            "{\"sources\":[\"https://ral.example/data/f1\"],\"destinations\":[\"https://cern.example/eos/f1\"],\"filesize\":-1}|files[0].filesize",
            "{\"sources\":[\"https://ral.example/data/f1\"],\"destinations\":[\"https://cern.example/eos/f1\"],\"filesize\":\"big\"}|files[0].filesize",
            "{\"sources\":[\"https://ral.example/data/f1\"],\"destinations\":[\"https://cern.example/eos/f1\"],\"filesize\":1.5}|files[0].filesize",
            "\"https://ral.example/data/f1\"|files[0]"})
    void aWrongFileIsRefusedByItsPath(String file, String field) {
        refused(withFile(file), field);
    }

    @Test
    void aWholeSizeSentAsAFloatIsStillASize() {
        // Python clients that compute sizes may send 1024.0
        String file = "{\"sources\":[\"https://ral.example/data/f1\"],\"destinations\":[\"https://cern.example/eos/f1\"],\"filesize\":1024.0}";
        assertEquals(1024L, parse(withFile(file)).files().get(0).filesize());
    }

    @Test
    void aUrlOrActivityTooLongIsRefused() {
        String longUrl = "https://ral.example/" + "a".repeat(4096);
        refused(withFile("{\"sources\":[\"" + longUrl + "\"],\"destinations\":[\"https://cern.example/eos/f1\"]}"), "files[0].sources");
        refused(withFile("{\"sources\":[\"https://ral.example/data/f1\"],\"destinations\":[\"https://cern.example/eos/f1\"],\"activity\":\""
                + "A".repeat(101) + "\"}"), "files[0].activity");
    }

    @Test
    void everyProblemIsReportedAtOnceWithItsPath() {
        String body = """
                {"files": [
                   {"sources": ["https://ral.example/data/f1"], "destinations": ["https://cern.example/eos/f1"]},
                   {"sources": [], "destinations": ["https://cern.example/eos/f2"], "checksum": "MD5:00"},
                   {"sources": ["https://ral.example/data/f3"], "destinations": ["https://cern.example/eos/f3"], "filesize": -5}],
                 "params": {"priority": 9, "retry": "many", "verify_checksum": "maybe"}}
                """;
        assertEquals(List.of("files[1].sources", "files[1].checksum", "files[2].filesize", "params.verify_checksum", "params.retry",
                "params.priority"), refusedFields(body));
    }

    @Test
    void aJobNeedsFilesAndAtMostTenThousand() {
        refused("{\"params\":{}}", "files");
        refused("{\"files\":[]}", "files");
        refused("{\"files\":{}}", "files");
        JsonNode file = readTree("{\"sources\":[\"https://ral.example/data/f\"],\"destinations\":[\"https://cern.example/eos/f\"]}");
        ObjectNode body = JSON.createObjectNode();
        ArrayNode files = body.putArray("files");
        for (int i = 0; i < Submission.MAX_FILES; i++) {
            files.add(file);
        }
        assertEquals(Submission.MAX_FILES, Submission.parse(body).files().size());
        files.add(file);
        ProblemException e = assertThrows(ProblemException.class, () -> Submission.parse(body));
        assertEquals(List.of("files"), e.problem().errors().stream().map(Problem.FieldError::field).toList());
    }

    @Test
    void aBodyThatIsNoObjectIsRefused() {
        for (String body : List.of("[]", "null", "\"files\"", "42")) {
            ProblemException e = assertThrows(ProblemException.class, () -> parse(body), body);
            assertEquals(400, e.problem().status());
            assertEquals(List.of("body"), e.problem().errors().stream().map(Problem.FieldError::field).toList());
        }
        assertThrows(ProblemException.class, () -> Submission.parse(null));
    }

    @Test
    void withFilesKeepsEveryParam() {
        Submission s = parse(withParams("{\"verify_checksum\":\"target\",\"priority\":1,\"retry\":4,\"id_generator\":\"deterministic\",\"sid\":\"x\","
                + "\"multihop\":true,\"overwrite_hop\":true}"));
        Submission resolved = s.withFiles(List.of(new Submission.FileRequest(List.of("https://ral.example/data/r1"),
                List.of("https://cern.example/eos/f1"), 10L, null, null, "default")));
        assertEquals(List.of("https://ral.example/data/r1"), resolved.files().get(0).sources());
        assertEquals(new Submission(resolved.files(), s.verifyChecksum(), s.overwrite(), s.retry(), s.retryDelay(), s.priority(),
                s.maxTimeInQueue(), s.timeout(), s.nostreams(), s.jobMetadata(), s.deterministic(), s.sid(), s.params(), true, true, s.deadline()), resolved);
        assertEquals(s.jobId("atlas"), resolved.jobId("atlas"));
    }

    static String chain(String... urls) {
        StringBuilder files = new StringBuilder();
        for (int i = 0; i + 1 < urls.length; i += 2) {
            files.append(files.length() == 0 ? "" : ",").append("{\"sources\":[\"").append(urls[i]).append("\"],\"destinations\":[\"")
                    .append(urls[i + 1]).append("\"]}");
        }
        return "{\"files\":[" + files + "],\"params\":{\"multihop\":true}}";
    }

    @Test
    void aMultihopJobIsAChainOfHops() {
        Submission s = parse(chain("https://a.example/f", "https://b.example/f", "https://b.example/f", "https://c.example/f"));
        assertTrue(s.multihop());
        assertFalse(s.overwriteHop());
        assertEquals(2, s.files().size());
        assertFalse(parse(withParams("{}")).multihop());
        assertTrue(parse(chain("https://a.example/f", "https://b.example/f").replace("{\"multihop\":true}",
                "{\"multihop\":true,\"overwrite_hop\":true}")).overwriteHop());
    }

    @Test
    void aHopWhoseSourceIsNotThePreviousDestinationIsRefused() {
        assertEquals(List.of("files[1].sources"),
                refusedFields(chain("https://a.example/f", "https://b.example/f", "https://b.example/other", "https://c.example/f")));
    }

    @Test
    void aHopWithSeveralSourcesIsRefused() {
        String body = "{\"files\":[{\"sources\":[\"https://a.example/f\",\"https://a2.example/f\"],\"destinations\":[\"https://b.example/f\"]}],"
                + "\"params\":{\"multihop\":true}}";
        assertEquals(List.of("files[0]"), refusedFields(body));
    }

    @Test
    void overwriteHopNeedsAMultihopJobAndNoOverwrite() {
        assertEquals(List.of("params.overwrite_hop"), refusedFields(withParams("{\"overwrite_hop\":true}")));
        assertEquals(List.of("params.overwrite_hop"), refusedFields(chain("https://a.example/f", "https://b.example/f")
                .replace("{\"multihop\":true}", "{\"multihop\":true,\"overwrite_hop\":true,\"overwrite\":true}")));
    }

    static JsonNode readTree(String json) {
        try {
            return JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new AssertionError(e);
        }
    }

    /** FTS3's tape parameters: wrong values are refused, each named; right ones are read back from the stored params. */
    @Test
    void tapeParametersAreValidatedAndReadBackFromTheStoredParams() {
        assertEquals(List.of("params.bring_online", "params.copy_pin_lifetime", "params.staging_metadata", "params.archive_timeout"),
                refusedFields(withParams("{\"bring_online\":\"soon\",\"copy_pin_lifetime\":-5,\"staging_metadata\":[1],\"archive_timeout\":1.5}")));
        Submission s = parse(withParams("{\"bring_online\":\"600\",\"copy_pin_lifetime\":3600,\"staging_metadata\":{\"a\":1},\"archive_timeout\":86400}"));
        TapeParams t = TapeParams.ofStored(s.params());
        assertEquals(600, t.bringOnline());
        assertTrue(t.staging());
        assertEquals("PT3600S", t.diskLifetime());
        assertEquals("{\"a\":1}", t.stagingMetadata().toString());
        assertTrue(t.archive());
        // FTS3's defaults (-1), as its bindings send them: no staging, no pin, no archive monitoring
        TapeParams none = TapeParams.ofStored(parse(withParams("{\"bring_online\":-1,\"copy_pin_lifetime\":-1,\"archive_timeout\":-1}")).params());
        assertFalse(none.staging());
        assertNull(none.diskLifetime());
        assertFalse(none.archive());
        assertEquals(TapeParams.NONE, TapeParams.ofStored("{}"));
    }

    /** dst_file_report: a flag (FTS3's schema: boolean or null), off unless asked, read back from the stored params. */
    @Test
    void dstFileReportIsAFlagReadBackFromTheStoredParams() {
        assertTrue(TapeParams.ofStored(parse(withParams("{\"dst_file_report\":true,\"archive_timeout\":3600}")).params()).dstFileReport());
        assertTrue(TapeParams.ofStored(parse(withParams("{\"dst_file_report\":\"true\"}")).params()).dstFileReport());
        assertFalse(TapeParams.ofStored(parse(withParams("{\"dst_file_report\":null}")).params()).dstFileReport());
        assertFalse(TapeParams.ofStored(parse(withParams("{}")).params()).dstFileReport());
        assertEquals(List.of("params.dst_file_report"), refusedFields(withParams("{\"dst_file_report\":\"sometimes\"}")));
    }

    /** overwrite_when_only_on_disk: a flag, with FTS3's rules (archive_timeout, no overwrite, HTTP destinations), read back from the stored params. */
    @Test
    void overwriteWhenOnlyOnDiskFollowsFts3sRules() {
        assertTrue(TapeParams.ofStored(parse(withParams("{\"overwrite_when_only_on_disk\":true,\"archive_timeout\":3600}")).params())
                .overwritesOnDiskOnly());
        assertFalse(TapeParams.ofStored(parse(withParams("{\"overwrite_when_only_on_disk\":false,\"overwrite\":true}")).params())
                .overwritesOnDiskOnly());
        assertEquals(List.of("params.overwrite_when_only_on_disk"), refusedFields(withParams("{\"overwrite_when_only_on_disk\":\"sometimes\"}")));
        assertEquals(List.of("params.overwrite_when_only_on_disk"), refusedFields(withParams("{\"overwrite_when_only_on_disk\":true}")));
        assertEquals(List.of("params.overwrite_when_only_on_disk"),
                refusedFields(withParams("{\"overwrite_when_only_on_disk\":true,\"archive_timeout\":3600,\"overwrite\":true}")));
        assertEquals(List.of("params.overwrite_when_only_on_disk"),
                refusedFields(withParams("{\"overwrite_when_only_on_disk\":true,\"archive_timeout\":3600,\"overwrite_on_retry\":true}")));
        assertEquals(List.of("params.overwrite_when_only_on_disk"), refusedFields("{\"files\":[{\"sources\":[\"https://ral.example/data/f1\"],"
                + "\"destinations\":[\"root://cern.example//eos/f1\"]}],\"params\":{\"overwrite_when_only_on_disk\":true,\"archive_timeout\":3600}}"));
        ProblemException e = assertThrows(ProblemException.class, () -> parse(withParams("{\"overwrite_when_only_on_disk\":true}")));
        assertEquals("'overwrite-when-only-on-disk' requires 'archive-timeout' to be set", e.problem().errors().get(0).message());
        // with overwrite_hop (FTS3's "Q"): only the multihop job's last destination must be HTTP
        Submission hops = parse("{\"files\":[{\"sources\":[\"https://ral.example/data/f1\"],\"destinations\":[\"root://mid.example//f1\"]},"
                + "{\"sources\":[\"root://mid.example//f1\"],\"destinations\":[\"davs://cern.example/eos/f1\"]}],"
                + "\"params\":{\"multihop\":true,\"overwrite_hop\":true,\"overwrite_when_only_on_disk\":true,\"archive_timeout\":3600}}");
        assertTrue(hops.overwriteHop());
    }
}
