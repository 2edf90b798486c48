package io.ferry.profiles.model;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The recommendation table against ESnet fasterdata's published Linux tuning: 10G up to 100 ms 128 MiB socket /
 * 64 MiB autotuning, 10G at 200 ms and 40G at 50 ms 256/128 MiB, 100G 2 GiB-1 / 1 GiB.
 */
class BdpRecommenderTest {

    static final long MIB = 1L << 20;

    @ParameterizedTest(name = "{0} Mbit/s at {1} ms -> tcp max {2} MiB, core max {3}")
    @CsvSource({
            // nic,   rtt, tcp max MiB, core max bytes
            "1000,    1,   16,   33554432",
            "1000,   10,   16,   33554432",
            "1000,  100,   16,   33554432",
            "1000,  200,   16,   33554432",
            "10000,   1,   64,  134217728",   // fasterdata 10G: 128 MiB / 64 MiB
            "10000,  10,   64,  134217728",
            "10000, 100,   64,  134217728",   // fasterdata 10G up to 100 ms
            "10000, 200,  128,  268435456",   // fasterdata 10G up to 200 ms: 256 MiB / 128 MiB
            "40000,   1,  128,  268435456",
            "40000,  10,  128,  268435456",
            "40000,  50,  128,  268435456",   // fasterdata 40G up to 50 ms
            "40000, 100,  256,  536870912",
            "40000, 200,  512, 1073741824",
            "100000,  1, 1024, 2147483647",   // fasterdata 100G: 2 GiB - 1 / 1 GiB
            "100000, 10, 1024, 2147483647",
            "100000, 100, 1024, 2147483647",
            "100000, 200, 1024, 2147483647",
    })
    void matchesThePublishedFigures(int nicMbps, double rttMs, long tcpMaxMib, long coreMax) {
        Recommendation r = BdpRecommender.recommend(nicMbps, rttMs, null, null, null);
        assertEquals("4096 87380 " + tcpMaxMib * MIB, r.settings().sysctls().get("net.ipv4.tcp_rmem"));
        assertEquals("4096 65536 " + tcpMaxMib * MIB, r.settings().sysctls().get("net.ipv4.tcp_wmem"));
        assertEquals(Long.toString(coreMax), r.settings().sysctls().get("net.core.rmem_max"));
        assertEquals(Long.toString(coreMax), r.settings().sysctls().get("net.core.wmem_max"));
        assertEquals("fq", r.settings().sysctls().get("net.core.default_qdisc"));
        assertEquals("1", r.settings().sysctls().get("net.ipv4.tcp_mtu_probing"));
        assertEquals("htcp", r.settings().sysctls().get("net.ipv4.tcp_congestion_control"));
        assertTrue(SysctlCatalog.validate(r.settings()).isEmpty(), "a recommendation must itself be a valid profile");
        r.settings().sysctls().keySet().forEach(k -> assertTrue(r.reasons().containsKey(k), "no reason for " + k));
    }

    @Test
    void perStreamSizingFollowsTheStreamCount() {
        // 10G at 150 ms: BDP 187.5 MB. One stream needs it all (256 MiB); eight streams need 23.4 MB each.
        Recommendation one = BdpRecommender.recommend(10_000, 150, 1, null, null);
        Recommendation eight = BdpRecommender.recommend(10_000, 150, 8, null, null);
        assertEquals(187_500_000L, one.bdpBytes());
        assertEquals(256 * MIB, SysctlCatalog.maxOf(one.settings().sysctls().get("net.ipv4.tcp_rmem")));
        assertEquals(23_437_500L, eight.perStreamBytes());
        assertEquals(64 * MIB, SysctlCatalog.maxOf(eight.settings().sysctls().get("net.ipv4.tcp_rmem")), "the 10G baseline holds");
    }

    @Test
    void warnsWhenTheBaselineFarExceedsThePathsNeed() {
        Recommendation lan = BdpRecommender.recommend(10_000, 1, null, 1500, null);
        assertTrue(lan.warnings().stream().anyMatch(w -> w.code().equals("BUFFERS_ABOVE_NEED")));
        assertTrue(lan.warnings().stream().anyMatch(w -> w.code().equals("SMALL_MTU")));
        Recommendation wan = BdpRecommender.recommend(10_000, 150, null, 9000, "bbr");
        assertTrue(wan.warnings().isEmpty(), wan.warnings().toString());
        assertEquals("bbr", wan.settings().sysctls().get("net.ipv4.tcp_congestion_control"));
        assertEquals(9000, wan.settings().interfaceSettings().get("mtu"));
    }
}
