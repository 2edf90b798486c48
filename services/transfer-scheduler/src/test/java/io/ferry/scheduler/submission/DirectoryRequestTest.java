package io.ferry.scheduler.submission;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.ferry.problem.ProblemException;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A directory entry read from a submission, and its filters' meaning. */
class DirectoryRequestTest {

    private static Submission parse(String json) throws Exception {
        return Submission.parse(new ObjectMapper().readTree(json));
    }

    private static List<String> fields(String json) {
        ProblemException e = assertThrows(ProblemException.class, () -> parse(json));
        return e.problem().errors().stream().map(f -> f.field()).toList();
    }

    @Test
    void aRecursiveEntryCarriesItsFiltersAndTheJobsLimit() throws Exception {
        Submission s = parse("{\"files\":[{\"sources\":[\"root://a.example//run/\"],\"destinations\":[\"s3://b.example/bucket/run/\"],"
                + "\"recursive\":true,\"include\":[\"*.root\"],\"exclude\":[\"tmp/*\"]}],\"params\":{\"max_files\":500}}");
        DirectoryRequest d = s.files().get(0).directory();
        assertEquals(List.of("*.root"), d.include());
        assertEquals(List.of("tmp/*"), d.exclude());
        assertEquals(500, d.maxFiles());
        assertEquals(Submission.MAX_FILES, parse("{\"files\":[{\"sources\":[\"file:///a/\"],\"destinations\":[\"file:///b/\"],\"recursive\":true}]}")
                .files().get(0).directory().maxFiles());
        assertNull(parse("{\"files\":[{\"sources\":[\"file:///a/f\"],\"destinations\":[\"file:///b/f\"]}]}").files().get(0).directory());
    }

    @Test
    void everyWrongDirectoryFieldIsNamed() {
        assertEquals(List.of("files[0].recursive"), fields("{\"files\":[{\"sources\":[\"file:///a/\"],\"destinations\":[\"file:///b/\"],\"recursive\":\"yes\"}]}"));
        assertEquals(List.of("files[0].sources"), fields("{\"files\":[{\"sources\":[\"gsiftp://a.example/d/\"],\"destinations\":[\"file:///b/\"],\"recursive\":true}]}"));
        assertEquals(List.of("files[0].include[1]", "files[0].exclude[0]"), fields("{\"files\":[{\"sources\":[\"file:///a/\"],\"destinations\":[\"file:///b/\"],"
                + "\"recursive\":true,\"include\":[\"*.root\",\"[x\"],\"exclude\":[\"/abs\"]}]}"));
        assertEquals(List.of("params.max_files"), fields("{\"files\":[{\"sources\":[\"file:///a/\"],\"destinations\":[\"file:///b/\"],\"recursive\":true}],"
                + "\"params\":{\"max_files\":\"10\"}}"));
        assertEquals(List.of("params.max_files"), fields("{\"files\":[{\"sources\":[\"file:///a/f\"],\"destinations\":[\"file:///b/f\"]}],\"params\":{\"max_files\":10}}"));
        assertTrue(fields("{\"files\":[{\"sources\":[\"file:///a/\"],\"destinations\":[\"file:///b/\"],\"recursive\":true}],\"params\":{\"multihop\":true}}")
                .contains("params.multihop"));
    }

    @Test
    void aGlobWithoutSlashMatchesNamesOneWithSlashTheRelativePath() {
        PathGlobs globs = new PathGlobs(List.of("*.root"), List.of("tmp/*", "**/scratch/**"));
        assertTrue(globs.keeps("a.root"));
        assertTrue(globs.keeps("x/y/a.root"));
        assertFalse(globs.keeps("a.log"));
        assertFalse(globs.keeps("tmp/a.root"));
        assertTrue(globs.keeps("x/tmp/a.root"), "tmp/* is anchored at the listed directory");
        assertFalse(globs.keeps("x/scratch/deep/a.root"));
        assertTrue(new PathGlobs(List.of(), List.of()).keeps("any/thing"));
    }
}
