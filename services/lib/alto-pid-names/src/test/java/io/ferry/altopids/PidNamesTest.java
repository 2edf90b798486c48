package io.ferry.altopids;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The SE → PID rule of docs/alto.md at its edges: the 63/64-character boundary and names alike but for '.'. */
class PidNamesTest {

    @Test
    void namesUpTo63CharactersMapOneToOneAndLongerOnesAreCutAndHashed() {
        String se63 = "a." + "b".repeat(61);
        assertEquals("a@" + "b".repeat(61), PidNames.pid(se63));
        String se64 = "a." + "b".repeat(62);
        String pid64 = PidNames.pid(se64);
        assertEquals(64, pid64.length());
        assertTrue(pid64.startsWith("a@" + "b".repeat(45) + "@"), pid64);
        assertTrue(pid64.substring(48).matches("[0-9a-f]{16}"), pid64);
        // Two long names alike in their first 47 characters still differ.
        String other = "a." + "b".repeat(61) + "c";
        assertFalse(PidNames.pid(other).equals(pid64));
    }

    @Test
    void everyPidIsAnRfcPidNameWithoutTheReservedDot() {
        Set<String> pids = new HashSet<>();
        String[] ses = {"CERN-PROD_DATADISK", "se.example.org:443", "se-example-org:443", "se_example.org:443", "a", "A.b.C",
                "x".repeat(100), "x".repeat(99) + "y", "1.2.3.4:8443"};
        for (String se : ses) {
            String pid = PidNames.pid(se);
            assertTrue(PidNames.isPidName(pid) && pid.indexOf('.') < 0 && pid.length() <= 64, se + " -> " + pid);
            pids.add(pid);
        }
        assertEquals(ses.length, pids.size(), "distinct SEs, distinct PIDs");
        assertFalse(PidNames.isPidName(""));
        assertFalse(PidNames.isPidName("se/x"));
        assertFalse(PidNames.isPidName("p".repeat(65)));
    }

    @Test
    void aDirectlyMappedPidGivesItsSeBackAndAHashedOneDoesNot() {
        assertEquals("se.example.org:443", PidNames.se(PidNames.pid("se.example.org:443")).orElseThrow());
        assertEquals("CERN-PROD_DATADISK", PidNames.se("CERN-PROD_DATADISK").orElseThrow());
        assertTrue(PidNames.se(PidNames.pid("x".repeat(64))).isEmpty());
    }
}
