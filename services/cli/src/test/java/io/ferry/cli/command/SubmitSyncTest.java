package io.ferry.cli.command;

import io.ferry.cli.transfer.SyncLevels;
import org.junit.jupiter.api.Test;

import static io.ferry.cli.command.DryRuns.dryRun;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SubmitSyncTest {

    @Test
    void syncGoesIntoTheJobsParamsByNameOrGlobusNumber() {
        String body = dryRun("submit", "https://a.example/f", "https://b.example/f", "--sync", "checksum", "--dry-run");
        assertTrue(body.replace(" ", "").contains("\"sync_level\":\"checksum\""), body);
        String numbered = dryRun("submit", "https://a.example/f", "https://b.example/f", "--sync", "2", "--dry-run");
        assertTrue(numbered.replace(" ", "").contains("\"sync_level\":\"mtime\""), numbered);
        String without = dryRun("submit", "https://a.example/f", "https://b.example/f", "--dry-run");
        assertTrue(!without.contains("sync_level"), without);
        assertEquals("exists", SyncLevels.parse("0"));
        assertEquals("size", SyncLevels.parse("SIZE"));
        IllegalArgumentException wrong = assertThrows(IllegalArgumentException.class, () -> SyncLevels.parse("newer"));
        assertTrue(wrong.getMessage().contains("--sync newer"), wrong.getMessage());
    }

    @Test
    void aWebhookGoesIntoTheJobsParamsAndOnlyHttpsIsSent() {
        String body = dryRun("submit", "https://a.example/f", "https://b.example/f", "--webhook", "https://hooks.example.org/ferry",
                "--webhook-file-failures", "--dry-run").replace(" ", "").replace("\n", "");
        assertTrue(body.contains("\"webhook\":{\"url\":\"https://hooks.example.org/ferry\",\"file_failures\":true}"), body);
        assertTrue(!dryRun("submit", "https://a.example/f", "https://b.example/f", "--dry-run").contains("webhook"));
        IllegalArgumentException plain = assertThrows(IllegalArgumentException.class, () -> io.ferry.cli.transfer.Webhooks.check("http://hooks.example.org/x"));
        assertTrue(plain.getMessage().contains("https://"), plain.getMessage());
    }
}
