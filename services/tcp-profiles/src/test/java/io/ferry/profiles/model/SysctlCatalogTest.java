package io.ferry.profiles.model;

import io.ferry.problem.Problem;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SysctlCatalogTest {

    static List<String> fields(Map<String, String> sysctls, Map<String, Integer> iface) {
        return SysctlCatalog.validate(new ProfileSettings(sysctls, iface)).stream().map(Problem.FieldError::field).toList();
    }

    @Test
    void refusesWhatTheKernelWouldSilentlyIgnoreOrReject() {
        assertEquals(List.of("sysctls.net.core.rmem_maximum"), fields(Map.of("net.core.rmem_maximum", "1"), Map.of()));
        assertEquals(List.of("sysctls.net.ipv4.tcp_rmem"), fields(Map.of("net.ipv4.tcp_rmem", "4096 87380"), Map.of()));
        assertEquals(List.of("sysctls.net.ipv4.tcp_rmem"), fields(Map.of("net.ipv4.tcp_rmem", "4096 8738000 1048576"), Map.of()));
        assertEquals(List.of("sysctls.net.core.wmem_max"), fields(Map.of("net.core.wmem_max", "2147483648"), Map.of()));
        assertEquals(List.of("sysctls.net.ipv4.tcp_congestion_control"), fields(Map.of("net.ipv4.tcp_congestion_control", "turbo"), Map.of()));
        assertEquals(List.of("sysctls.net.core.rmem_default"),
                fields(Map.of("net.core.rmem_default", "8388608", "net.core.rmem_max", "4194304"), Map.of()));
        assertEquals(List.of("interface.mtu"), fields(Map.of(), Map.of("mtu", 100000)));
        assertEquals(List.of("interface.speed"), fields(Map.of(), Map.of("speed", 10)));
    }

    @Test
    void acceptsTheMaximumLinuxAllowsAndTabsInTriples() {
        assertTrue(fields(Map.of("net.core.rmem_max", "2147483647", "net.ipv4.tcp_wmem", "4096\t65536\t1073741824",
                "net.ipv4.tcp_mtu_probing", "1", "net.core.default_qdisc", "fq"), Map.of("txqueuelen", 10000, "mtu", 9000)).isEmpty());
        assertTrue(SysctlCatalog.sameValue("4096\t131072\t33554432", "4096 131072 33554432"));
    }
}
