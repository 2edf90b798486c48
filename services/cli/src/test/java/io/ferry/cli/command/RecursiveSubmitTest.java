package io.ferry.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ferry.cli.Main;
import org.junit.jupiter.api.Test;

import static io.ferry.cli.command.DryRuns.dryRun;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code ferry submit -r SRC/ DST/}: one directory entry with its filters, its limit in the job's params. */
class RecursiveSubmitTest {

    @Test
    void aDirectoryCopyIsOneRecursiveEntryWithItsFiltersAndLimit() throws Exception {
        JsonNode body = new ObjectMapper().readTree(dryRun("submit", "-r", "davs://a.example/run/", "davs://b.example/run/",
                "--include", "*.root", "--exclude", "tmp/*", "--exclude", "*.log", "--max-files", "500", "--dry-run", "-o", "json"));
        JsonNode file = body.path("files").path(0);
        assertTrue(file.path("recursive").asBoolean(), body.toString());
        assertEquals("[\"*.root\"]", file.path("include").toString());
        assertEquals("[\"tmp/*\",\"*.log\"]", file.path("exclude").toString());
        assertEquals(500, body.path("params").path("max_files").asInt());
    }

    @Test
    void filtersWithoutADirectoryOrADirectoryWithoutSlashesAreRefused() {
        assertNotEquals(0, Main.run("submit", "davs://a.example/f", "davs://b.example/f", "--include", "*.root", "--dry-run"));
        assertNotEquals(0, Main.run("submit", "-r", "davs://a.example/run", "davs://b.example/run/", "--dry-run"));
    }
}
