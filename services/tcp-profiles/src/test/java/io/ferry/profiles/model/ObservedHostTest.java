package io.ferry.profiles.model;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Drift detection on `sysctl -a` and `ip link` as captured from a real machine (this project's build host). */
class ObservedHostTest {

    static String resource(String name) throws IOException {
        try (InputStream in = ObservedHostTest.class.getResourceAsStream("/observed/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void parsesARealCapture() throws IOException {
        Map<String, String> sysctls = ObservedHost.parseSysctl(resource("sysctl-a.txt"));
        assertTrue(sysctls.size() > 500, "a full sysctl -a has hundreds of keys, got " + sysctls.size());
        assertEquals("4096 131072 33554432", sysctls.get("net.ipv4.tcp_rmem"), "tabs between triple values are folded");
        Map<String, Map<String, Integer>> links = ObservedHost.parseIpLink(resource("ip-link.txt"));
        assertEquals(1400, links.get("eth0").get("mtu"));
        assertEquals(1000, links.get("eth0").get("txqueuelen"));
        assertEquals(1, links.get("lo").get("loopback"));
    }

    @Test
    void numbersBeyondAnIntAreLeftOutNotAFailure() {
        Map<String, Map<String, Integer>> links = ObservedHost.parseIpLink(
                "2: eth0: <BROADCAST,UP> mtu 99999999999 qdisc fq state UP qlen 12345678901\n3: eth1: <UP> mtu 9000 qlen 10000");
        assertFalse(links.get("eth0").containsKey("mtu"));
        assertFalse(links.get("eth0").containsKey("txqueuelen"));
        assertEquals(9000, links.get("eth1").get("mtu"));
        assertEquals(10000, links.get("eth1").get("txqueuelen"));
    }

    @Test
    void driftAgainstAFasterdataProfileListsEachDifference() throws IOException {
        ObservedHost host = new ObservedHost(ObservedHost.parseSysctl(resource("sysctl-a.txt")),
                ObservedHost.parseIpLink(resource("ip-link.txt")));
        ProfileSettings wan = BdpRecommender.recommend(10_000, 100, null, null, "bbr").settings();
        List<DriftCheck.Difference> diffs = DriftCheck.compare(wan, host);
        List<String> settings = diffs.stream().map(DriftCheck.Difference::setting).toList();
        assertTrue(settings.contains("sysctls.net.core.rmem_max"), settings.toString());
        assertTrue(settings.contains("sysctls.net.core.default_qdisc"), settings.toString());
        assertTrue(settings.contains("interface.txqueuelen"), settings.toString());
        assertFalse(settings.contains("sysctls.net.ipv4.tcp_congestion_control"), "bbr is what this host runs");
        DriftCheck.Difference qlen = diffs.stream().filter(d -> d.setting().equals("interface.txqueuelen")).findFirst().orElseThrow();
        assertEquals("eth0", qlen.interfaceName(), "only the up, non-loopback interface is a data interface");
        assertEquals("1000", qlen.observed());

        // A profile equal to what the host runs shows no drift.
        ProfileSettings same = new ProfileSettings(Map.of("net.ipv4.tcp_rmem", "4096 131072 33554432",
                "net.ipv4.tcp_congestion_control", "bbr"), Map.of("mtu", 1400));
        assertTrue(DriftCheck.compare(same, host).isEmpty());
    }
}
