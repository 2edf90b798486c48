package io.ferry.scheduler.webhooks;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Which addresses a webhook may be sent to: none of Ferry's own network. Loopback, private (RFC 1918, fc00::/7),
 * link-local (169.254/16, where cloud metadata lives, fe80::/10), carrier-grade NAT (100.64/10), multicast,
 * unspecified, 0/8, reserved (240/4), benchmarking (198.18/15), IETF protocol (192.0.0/24) and those embedded in IPv6
 * (IPv4-mapped, -compatible, NAT64 64:ff9b::/96, 6to4 2002::/16) are refused. The documentation ranges stay usable: the
 * tests' receiver lives in one.
 */
public final class AddressPolicy {

    private AddressPolicy() {
    }

    /** Why a webhook may not go to this address, null when it may. */
    public static String refusal(InetAddress a) {
        if (a instanceof Inet6Address) {
            byte[] b = a.getAddress();
            InetAddress embedded = embeddedIpv4(b);
            if (embedded != null) {
                String why = refusal(embedded);
                return why == null ? null : why + " (embedded in " + a.getHostAddress() + ")";
            }
            if ((b[0] & 0xfe) == 0xfc) {
                return "a unique local (private) address";
            }
        }
        if (a.isAnyLocalAddress()) {
            return "the unspecified address";
        }
        if (a.isLoopbackAddress()) {
            return "a loopback address";
        }
        if (a.isLinkLocalAddress()) {
            return "a link-local address";
        }
        if (a.isSiteLocalAddress()) {
            return "a private address";
        }
        if (a.isMulticastAddress()) {
            return "a multicast address";
        }
        if (a instanceof Inet4Address) {
            byte[] b = a.getAddress();
            int first = b[0] & 0xff;
            int second = b[1] & 0xff;
            if (first == 0) {
                return "an address of 'this network' (0.0.0.0/8)";
            }
            if (first == 100 && (second & 0xc0) == 64) {
                return "a carrier-grade NAT address (100.64.0.0/10)";
            }
            if (first == 192 && second == 0 && (b[2] & 0xff) == 0) {
                return "an IETF protocol address (192.0.0.0/24)";
            }
            if (first == 198 && (second & 0xfe) == 18) {
                return "a benchmarking address (198.18.0.0/15)";
            }
            if (first >= 240) {
                return "a reserved or broadcast address";
            }
        }
        return null;
    }

    /** The IPv4 address an IPv6 one carries (mapped, compatible, NAT64, 6to4), null if none. */
    private static InetAddress embeddedIpv4(byte[] b) {
        boolean zeros80 = true;
        for (int i = 0; i < 10; i++) {
            zeros80 &= b[i] == 0;
        }
        boolean mapped = zeros80 && (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff;
        boolean compatible = zeros80 && b[10] == 0 && b[11] == 0 && !(b[12] == 0 && b[13] == 0 && b[14] == 0 && (b[15] & 0xfe) == 0);
        boolean nat64 = b[0] == 0 && b[1] == 0x64 && (b[2] & 0xff) == 0xff && (b[3] & 0xff) == 0x9b;
        try {
            if (mapped || compatible || nat64) {
                return InetAddress.getByAddress(new byte[] {b[12], b[13], b[14], b[15]});
            }
            if (b[0] == 0x20 && b[1] == 0x02) {
                return InetAddress.getByAddress(new byte[] {b[2], b[3], b[4], b[5]});
            }
        } catch (UnknownHostException impossible) {
            throw new IllegalStateException(impossible);
        }
        return null;
    }
}
