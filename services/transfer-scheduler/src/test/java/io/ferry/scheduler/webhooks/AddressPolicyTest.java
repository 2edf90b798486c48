package io.ferry.scheduler.webhooks;

import io.ferry.problem.Problem;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which addresses a webhook may reach, and which hosts an allow-list lets through. */
class AddressPolicyTest {

    static String refusal(String address) throws Exception {
        return AddressPolicy.refusal(InetAddress.getByName(address));
    }

    @Test
    void ferrysOwnNetworkIsRefusedInEveryForm() throws Exception {
        for (String a : List.of("127.0.0.1", "127.8.9.10", "::1", "10.0.0.1", "172.16.0.1", "172.31.255.255", "192.168.1.1",
                "169.254.169.254", "fe80::1", "fc00::1", "fd12:3456::1", "100.64.0.1", "100.127.255.254", "0.0.0.0", "0.1.2.3", "::",
                "224.0.0.1", "ff02::1", "255.255.255.255", "240.0.0.1", "198.18.0.1", "192.0.0.8",
                "::ffff:127.0.0.1", "::ffff:10.1.2.3", "::ffff:169.254.169.254", "::10.1.2.3", "64:ff9b::a01:203", "2002:a00:1::1")) {
            assertNotNull(refusal(a), a + " must be refused");
        }
    }

    @Test
    void publicAddressesAreAllowed() throws Exception {
        for (String a : List.of("8.8.8.8", "188.184.21.108", "100.63.255.255", "100.128.0.1", "172.32.0.1", "203.0.113.2",
                "2001:db8::1", "2a00:1450:4001:80b::200e", "::ffff:8.8.8.8", "64:ff9b::808:808")) {
            assertNull(refusal(a), a + " must be allowed");
        }
        // Java reads ::ffff:a.b.c.d as the IPv4 address itself; NAT64 stays IPv6 and is judged by what it carries
        assertTrue(refusal("64:ff9b::a01:203").contains("embedded in"));
    }

    @Test
    void allowListsMatchExactNamesAndWholeSubdomainsOnly() {
        List<Problem.FieldError> errors = new ArrayList<>();
        AllowedHosts hosts = AllowedHosts.parse(List.of("hooks.example.org", "*.Rucio.Example.org"), "allowed_hosts", errors);
        assertTrue(errors.isEmpty());
        assertTrue(hosts.allows("hooks.example.org"));
        assertTrue(hosts.allows("HOOKS.example.org"));
        assertTrue(hosts.allows("a.rucio.example.org"));
        assertTrue(hosts.allows("a.b.rucio.example.org"));
        assertFalse(hosts.allows("rucio.example.org"), "*.domain is not the domain itself");
        assertFalse(hosts.allows("evilrucio.example.org"));
        assertFalse(hosts.allows("hooks.example.org.evil.net"));
        assertFalse(hosts.allows("other.example.org"));
    }

    @Test
    void allowListsTakeNamesOnly() {
        List<Problem.FieldError> errors = new ArrayList<>();
        AllowedHosts.parse(List.of("ok.example.org", "10.0.0.1", "https://x.org", "x.org:443", "*", "*.", "a.*.org", ""), "allowed_hosts", errors);
        assertEquals(List.of("allowed_hosts[1]", "allowed_hosts[2]", "allowed_hosts[3]", "allowed_hosts[4]", "allowed_hosts[5]",
                "allowed_hosts[6]", "allowed_hosts[7]"), errors.stream().map(Problem.FieldError::field).toList());
    }
}
