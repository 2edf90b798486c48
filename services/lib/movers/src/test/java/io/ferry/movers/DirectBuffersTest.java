package io.ferry.movers;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The copies' direct memory stays within its budget, and every buffer's place comes back. */
class DirectBuffersTest {

    @Test
    void copiesReserveWithinTheBudgetAndWaitWhenItIsHeld() throws Exception {
        DirectBuffers budget = new DirectBuffers(16L * DirectBuffers.SIZE);
        DirectBuffers.Reservation first = budget.reserve(1, 100, Duration.ZERO);
        assertEquals(4, first.size(), "one copy takes at most a quarter of the budget");
        DirectBuffers.Reservation second = budget.reserve(4, 4, Duration.ZERO);
        DirectBuffers.Reservation third = budget.reserve(4, 4, Duration.ZERO);
        DirectBuffers.Reservation fourth = budget.reserve(2, 4, Duration.ZERO);
        assertEquals(0, budget.available());
        assertNull(budget.reserve(1, 1, Duration.ofMillis(50)), "nothing is left until a copy gives its place back");
        second.close();
        DirectBuffers.Reservation fifth = budget.reserve(1, 8, Duration.ofMillis(50));
        assertNotNull(fifth);
        assertEquals(4, fifth.size());
        for (DirectBuffers.Reservation r : new DirectBuffers.Reservation[] {first, third, fourth, fifth}) {
            r.close();
        }
        assertEquals(16, budget.available());
    }

    @Test
    void aCopyCannotHoldMoreThanItReservedAndBuffersAreReused() throws Exception {
        DirectBuffers budget = new DirectBuffers(8L * DirectBuffers.SIZE);
        DirectBuffers.Reservation r = budget.reserve(2, 2, Duration.ZERO);
        ByteBuffer a = r.take();
        ByteBuffer b = r.take();
        assertEquals(DirectBuffers.SIZE, a.capacity());
        assertThrows(IllegalStateException.class, r::take);
        r.give(a);
        assertSame(a, r.take(), "a buffer given back is the next one taken");
        r.give(a);
        r.give(b);
        r.close();
        assertEquals(8, budget.available());
    }

    @Test
    void aBufferThatComesBackAfterItsCopyClosedFreesItsPlaceThen() throws Exception {
        DirectBuffers budget = new DirectBuffers(8L * DirectBuffers.SIZE);
        DirectBuffers.Reservation r = budget.reserve(2, 2, Duration.ZERO);
        ByteBuffer late = r.take();
        r.close();
        assertEquals(7, budget.available(), "a range still arriving for an abandoned copy keeps its place");
        assertThrows(IllegalStateException.class, r::take);
        r.give(late);
        assertEquals(8, budget.available());
    }

    @Test
    void aCopyWaitsForMemoryUntilItsTimeoutOrItsStop() throws Exception {
        DirectBuffers budget = new DirectBuffers(4L * DirectBuffers.SIZE);
        DirectBuffers.Reservation[] held = new DirectBuffers.Reservation[4];
        for (int i = 0; i < held.length; i++) {
            held[i] = budget.reserve(1, 1, Duration.ZERO);
        }
        MoverException late = assertThrows(MoverException.class,
                () -> budget.reserveForCopy(1, 1, Duration.ofMillis(300), TransferProgress.unwatched()));
        assertEquals(MoverException.Code.TIMEOUT, late.code());
        assertTrue(late.getMessage().contains("no copy memory came free"), late.getMessage());

        TransferProgress stopped = TransferProgress.unwatched();
        stopped.abort(MoverException.Code.CANCELED, "job canceled");
        MoverException canceled = assertThrows(MoverException.class, () -> budget.reserveForCopy(1, 1, Duration.ofMinutes(1), stopped));
        assertEquals(MoverException.Code.CANCELED, canceled.code());
        for (DirectBuffers.Reservation r : held) {
            r.close();
        }
        assertEquals(4, budget.available());
    }

    @Test
    void aCopyWaitingForSeveralBuffersSettlesForOneAfterASecond() throws Exception {
        DirectBuffers budget = new DirectBuffers(16L * DirectBuffers.SIZE);
        DirectBuffers.Reservation[] held = {budget.reserve(4, 4, Duration.ZERO), budget.reserve(4, 4, Duration.ZERO),
                budget.reserve(4, 4, Duration.ZERO), budget.reserve(3, 3, Duration.ZERO)};
        long t0 = System.nanoTime();
        try (DirectBuffers.Reservation one = budget.reserveForCopy(2, 4, Duration.ofSeconds(30), TransferProgress.unwatched())) {
            assertEquals(1, one.size());
            assertTrue(System.nanoTime() - t0 >= 1_000_000_000L, "it waited a second for two first");
        }
        for (DirectBuffers.Reservation r : held) {
            r.close();
        }
        assertEquals(16, budget.available());
    }
}
