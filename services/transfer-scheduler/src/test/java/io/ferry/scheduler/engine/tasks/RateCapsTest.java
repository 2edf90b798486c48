package io.ferry.scheduler.engine.tasks;

import io.ferry.movers.RateLimit;
import io.ferry.movers.TokenBucket;
import io.ferry.movers.TransferProgress;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Who shares which bucket at what rate, and when a third-party copy of a capped link may start (a fake clock). */
class RateCapsTest {

    private static final long SECOND = 1_000_000_000L;
    private final AtomicLong now = new AtomicLong(SECOND);
    private final RateCaps caps = new RateCaps(null, now::get);
    private final UUID job = UUID.randomUUID();

    @Test
    void theFilesOfAJobShareOneBucketAtTheirReplicasShareOfTheCap() {
        RateCaps.Held first = caps.held(job, "A>B", 4_000_000L, null, 2, 0);
        RateCaps.Held second = caps.held(job, "A>C", 4_000_000L, null, 2, 0);
        assertSame(first.limit(), second.limit());
        assertEquals(2_000_000, ((TokenBucket) first.limit()).rate(), 1e-9, "two replicas run the job's files: half each");
        RateCaps.Held alone = caps.held(job, "A>B", 4_000_000L, null, 1, 0);
        assertEquals(4_000_000, ((TokenBucket) alone.limit()).rate(), 1e-9, "the share follows when a replica leaves");
        first.close();
        second.close();
        alone.close();
        assertNotSame(first.limit(), caps.held(job, "A>B", 4_000_000L, null, 1, 0).limit(), "a bucket is kept only while a file holds it");
    }

    @Test
    void aFileUnderBothCapsWaitsForBothAndOneUnderNoneForNothing() {
        RateCaps.Held both = caps.held(job, "A>B", 4_000_000L, 8_000_000L, 1, 1);
        assertTrue(both.capped());
        assertFalse(both.limit() instanceof TokenBucket, "the job's and the link's together");
        RateCaps.Held otherVo = caps.held(UUID.randomUUID(), "A>B", null, 8_000_000L, 0, 1);
        assertInstanceOf(TokenBucket.class, otherVo.limit());
        RateCaps.Held free = caps.held(job, "X>Y", null, null, 0, 0);
        assertFalse(free.capped());
        assertSame(RateLimit.NONE, free.limit());
    }

    @Test
    void aThirdPartyCopyStartsOnlyWhileTheRunningOnesMoveUnderTheCap() throws IOException {
        TransferProgress p1 = TransferProgress.unwatched();
        TransferProgress p2 = TransferProgress.unwatched();
        TransferProgress p3 = TransferProgress.unwatched();
        RateCaps.Held h1 = caps.held(job, "A>B", null, 10_000_000L, 0, 1);
        RateCaps.Held h2 = caps.held(UUID.randomUUID(), "A>B", null, 10_000_000L, 0, 1);
        RateCaps.Held h3 = caps.held(UUID.randomUUID(), "A>B", null, 10_000_000L, 0, 1);
        assertTrue(h1.admitted(p1), "nothing runs yet");
        now.addAndGet(SECOND);
        assertFalse(h2.admitted(p2), "the first has sent no markers yet");
        now.addAndGet(6 * SECOND);
        p1.reachedTotal(35_000_000);  // 5 MB/s over 7 s
        assertTrue(h2.admitted(p2), "5 MB/s leaves room under 10");
        now.addAndGet(7 * SECOND);
        p1.reachedTotal(70_000_000);
        p2.reachedTotal(35_000_000);  // together 10 MB/s
        assertFalse(h3.admitted(p3), "the cap is reached");
        h1.close();
        assertTrue(h3.admitted(p3), "one ended: 5 MB/s left running");
    }
}
