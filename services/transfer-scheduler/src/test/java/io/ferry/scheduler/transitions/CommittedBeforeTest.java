package io.ferry.scheduler.transitions;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CommittedBeforeTest {

    @Test
    void aSnapshotHoldsWhatEndedBeforeItAndNothingStillRunningOrLater() {
        CommittedBefore s = CommittedBefore.parse("1000:1010:1002,1005");
        assertTrue(s.includes(999));
        assertTrue(s.includes(1000));
        assertFalse(s.includes(1002));
        assertTrue(s.includes(1003));
        assertFalse(s.includes(1005));
        assertFalse(s.includes(1010));
        assertFalse(s.includes(5000));
    }

    @Test
    void aSnapshotWithNothingRunningAndOneThatIsNotASnapshot() {
        CommittedBefore idle = CommittedBefore.parse("742:742:");
        assertTrue(idle.includes(741));
        assertFalse(idle.includes(742));
        assertThrows(IllegalArgumentException.class, () -> CommittedBefore.parse("742"));
    }
}
