package io.ferry.movers;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The bucket's average and burst on a fake clock whose sleeps advance it: exact, and no real waiting. */
class TokenBucketTest {

    private static final RateLimit.StillWanted WANTED = () -> { };

    /** A clock that only sleeping moves. */
    private static final class FakeTime {
        final AtomicLong now = new AtomicLong(1_000_000_000L);
        long slept;

        TokenBucket bucket(double rate) {
            return new TokenBucket(rate, now::get, nanos -> {
                slept += nanos;
                now.addAndGet(nanos);
            });
        }

        double seconds() {
            return (now.get() - 1_000_000_000L) / 1e9;
        }
    }

    @Test
    void theAverageOfManyChunksIsTheRateAndOnlyOneBurstAhead() throws IOException {
        FakeTime t = new FakeTime();
        double rate = 4_000_000;
        TokenBucket bucket = t.bucket(rate);
        long moved = 0;
        for (int i = 0; i < 128; i++) {
            bucket.acquire(256 << 10, WANTED);
            moved += 256 << 10;
        }
        // the first burst is free, the rest is paced: moved = rate × elapsed + burst
        double expected = (moved - rate * TokenBucket.BURST_SECONDS) / rate;
        assertEquals(expected, t.seconds(), 1e-6);
        assertTrue(moved / t.seconds() <= rate * 1.05, "average " + moved / t.seconds());
    }

    @Test
    void aChunkLargerThanTheBurstIsSleptOffNotRefused() throws IOException {
        FakeTime t = new FakeTime();
        TokenBucket bucket = t.bucket(1_000_000);
        bucket.acquire(250_000, WANTED);  // the burst
        assertEquals(0, t.slept);
        bucket.acquire(3_000_000, WANTED);
        assertEquals(3.0, t.seconds(), 1e-6);
    }

    @Test
    void idleTimeBuysNoMoreThanOneBurst() throws IOException {
        FakeTime t = new FakeTime();
        TokenBucket bucket = t.bucket(1_000_000);
        t.now.addAndGet(60_000_000_000L);  // a minute idle
        bucket.acquire(1_250_000, WANTED);
        assertEquals(60 + 1.0, t.seconds(), 1e-6, "0.25 s of burst, the other second slept");
    }

    @Test
    void copiesSharingABucketShareItsRate() throws IOException {
        FakeTime t = new FakeTime();
        TokenBucket shared = t.bucket(2_000_000);
        // two copies taking turns chunk by chunk: together at the rate, not each
        for (int i = 0; i < 40; i++) {
            shared.acquire(100_000, WANTED);
            shared.acquire(100_000, WANTED);
        }
        assertEquals((8_000_000 - 500_000) / 2_000_000.0, t.seconds(), 1e-6);
    }

    @Test
    void aLowerRateTakesEffectAtOnce() throws IOException {
        FakeTime t = new FakeTime();
        TokenBucket bucket = t.bucket(10_000_000);
        bucket.acquire(2_500_000, WANTED);
        bucket.setRate(1_000_000);
        bucket.acquire(1_000_000, WANTED);
        assertEquals(1.0, t.seconds(), 1e-6);
    }

    @Test
    void aLongWaitIsSlicedSoAStoppedCopyEndsWithinASecond() {
        FakeTime t = new FakeTime();
        TokenBucket bucket = t.bucket(100_000);
        int[] checks = {0};
        IOException stopped = assertThrows(IOException.class, () -> bucket.acquire(25_000 + 1_000_000, () -> {
            if (++checks[0] == 3) {
                throw new IOException("aborted");
            }
        }));
        assertEquals("aborted", stopped.getMessage());
        assertEquals(3.0, t.seconds(), 1e-6, "three one-second slices of a ten-second wait");
    }

    @Test
    void aStreamWaitsForItsLimitAfterEachRead() throws IOException {
        FakeTime t = new FakeTime();
        TokenBucket bucket = t.bucket(1_000_000);
        byte[] data = new byte[3_250_000];
        try (ChecksumStream in = new ChecksumStream(new ByteArrayInputStream(data), TransferProgress.unwatched(), null, bucket)) {
            in.transferTo(java.io.OutputStream.nullOutputStream());
            assertEquals(data.length, in.bytes());
        }
        assertEquals(3.0, t.seconds(), 1e-6);
    }

    @Test
    void bothLimitsHoldTheCopyToTheSlower() throws IOException {
        FakeTime t = new FakeTime();
        RateLimit both = RateLimit.both(t.bucket(4_000_000), t.bucket(1_000_000));
        both.acquire(250_000, WANTED);
        both.acquire(2_000_000, WANTED);
        // the slower alone would take 2 s; its tokens also refilled while the faster one's wait ran, up to its burst
        assertTrue(t.seconds() >= 2.0 - 1e-6 && t.seconds() <= 2.0 + 2_000_000 / 4_000_000.0, "took " + t.seconds());
        assertEquals(RateLimit.NONE, RateLimit.both(RateLimit.NONE, RateLimit.NONE));
    }

    @Test
    void aRateIsPositive() {
        assertThrows(IllegalArgumentException.class, () -> new TokenBucket(0));
    }
}
