package io.ferry.scheduler.replicas;

import io.ferry.scheduler.queue.ClaimedFile;
import io.ferry.scheduler.queue.FileState;
import org.junit.jupiter.api.Test;

import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RunningFilesTest {

    private static ClaimedFile claim(long fileId, long epoch) {
        return new ClaimedFile(fileId, UUID.randomUUID(), 1, "atlas", "default", "http://a/x", "http://b/x", "SE-A", "SE-B", null, null,
                FileState.ACTIVE, null, null, null, null, null, false, false, "none", false, 0, 0, null, null, null, epoch, false, null);
    }

    @Test
    void theOldAttemptEndingDoesNotForgetTheFilesNewClaim() {
        RunningFiles running = new RunningFiles();
        ClaimedFile old = claim(7, 1);
        ClaimedFile again = claim(7, 2);
        running.add(old, true);
        running.add(again, true);
        running.remove(old);
        assertEquals(1, running.all().size(), "the new claim is still in hand, so its lease is renewed");
        assertEquals(2, running.all().get(0).file().claimEpoch());
        running.remove(again);
        assertTrue(running.all().isEmpty());
    }
}
