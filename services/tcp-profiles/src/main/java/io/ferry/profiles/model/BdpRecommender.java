package io.ferry.profiles.model;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * TCP buffer sizes from the bandwidth-delay product, in line with ESnet fasterdata's Linux host tuning:
 * 10G hosts 64 MiB autotuning maximum (128 MiB socket maximum) up to 100 ms, 128/256 MiB at 200 ms; 40G hosts
 * 128/256 MiB at 50 ms; 100G hosts 1 GiB / 2 GiB - 1. Those figures are the per-stream window of two streams
 * (BDP / 2, rounded up to a power of two), with a floor per NIC class so short paths keep the published
 * baseline; the socket maximum is twice the autotuning maximum (room for the kernel's own overhead).
 */
public final class BdpRecommender {

    static final long MIB = 1L << 20;
    /** fasterdata tunes "for friendliness to single and parallel stream tools": its figures assume two streams. */
    static final int DEFAULT_STREAMS = 2;
    static final long AUTOTUNE_CAP = 1L << 30;

    private BdpRecommender() {
    }

    public static Recommendation recommend(int nicMbps, double rttMs, Integer streams, Integer mtu, String congestion) {
        int n = streams == null ? DEFAULT_STREAMS : streams;
        String cc = congestion == null ? "htcp" : congestion;
        long bdp = Math.round(nicMbps * 1e6 / 8 * rttMs / 1000);
        long perStream = (bdp + n - 1) / n;
        long floor = floorFor(nicMbps);
        long autotuneMax = Math.min(AUTOTUNE_CAP, Math.max(floor, powerOfTwoAtLeast(perStream)));
        long socketMax = Math.min(SysctlCatalog.MAX_BUFFER, 2 * autotuneMax);

        Map<String, String> sysctls = new TreeMap<>();
        Map<String, String> reasons = new LinkedHashMap<>();
        String need = String.format("BDP %s = %s x %.1f ms; per stream (%d stream%s) %s", human(bdp),
                NicSpeed.format(nicMbps), rttMs, n, n == 1 ? "" : "s", human(perStream));
        String sized = autotuneMax > powerOfTwoAtLeast(perStream)
                ? "the " + NicSpeed.format(nicMbps) + " baseline of " + human(floor) + " (above the path's need)"
                : autotuneMax == AUTOTUNE_CAP && powerOfTwoAtLeast(perStream) > AUTOTUNE_CAP
                ? "capped at 1 GiB, the largest autotuning limit fasterdata recommends"
                : "the per-stream need rounded up to a power of two";
        sysctls.put("net.ipv4.tcp_rmem", "4096 87380 " + autotuneMax);
        reasons.put("net.ipv4.tcp_rmem", "receive autotuning may grow to " + human(autotuneMax) + ": " + sized + "; " + need);
        sysctls.put("net.ipv4.tcp_wmem", "4096 65536 " + autotuneMax);
        reasons.put("net.ipv4.tcp_wmem", "send autotuning may grow to " + human(autotuneMax) + ", as for receive");
        sysctls.put("net.core.rmem_max", Long.toString(socketMax));
        reasons.put("net.core.rmem_max", "twice the autotuning maximum, so applications that set SO_RCVBUF get the same window"
                + (socketMax == SysctlCatalog.MAX_BUFFER ? " (Linux caps it at 2 GiB - 1)" : ""));
        sysctls.put("net.core.wmem_max", Long.toString(socketMax));
        reasons.put("net.core.wmem_max", "as net.core.rmem_max, for SO_SNDBUF");
        sysctls.put("net.ipv4.tcp_congestion_control", cc);
        reasons.put("net.ipv4.tcp_congestion_control", cc.equals("bbr")
                ? "bbr paces by measured bandwidth and RTT and tolerates loss on long paths (needs fq)"
                : "htcp recovers its window quickly after loss on long fat paths; fasterdata recommends htcp or bbr");
        sysctls.put("net.core.default_qdisc", "fq");
        reasons.put("net.core.default_qdisc", "fair queueing paces each flow, which large windows and bbr need");
        sysctls.put("net.ipv4.tcp_mtu_probing", "1");
        reasons.put("net.ipv4.tcp_mtu_probing", "finds the path MTU when ICMP is filtered; recommended with jumbo frames");
        sysctls.put("net.ipv4.tcp_no_metrics_save", "1");
        reasons.put("net.ipv4.tcp_no_metrics_save", "do not start new connections from a previous connection's slow-start threshold");
        long backlog = nicMbps >= 40_000 ? 250_000 : nicMbps >= 10_000 ? 30_000 : 5_000;
        sysctls.put("net.core.netdev_max_backlog", Long.toString(backlog));
        reasons.put("net.core.netdev_max_backlog", "packets queued between the NIC and the stack at " + NicSpeed.format(nicMbps));

        Map<String, Integer> iface = new TreeMap<>();
        int txqueuelen = nicMbps >= 10_000 ? 10_000 : 1_000;
        iface.put("txqueuelen", txqueuelen);
        reasons.put("interface.txqueuelen", nicMbps >= 10_000
                ? "a 10000-packet transmit queue absorbs bursts at " + NicSpeed.format(nicMbps)
                : "the kernel default of 1000 suffices below 10G");
        if (mtu != null) {
            iface.put("mtu", mtu);
            reasons.put("interface.mtu", mtu >= 9000 ? "jumbo frames cut per-packet cost; every hop must carry them"
                    : "as requested");
        }

        List<Recommendation.Warning> warnings = new ArrayList<>();
        if (autotuneMax >= 4 * Math.max(perStream, 1)) {
            warnings.add(new Recommendation.Warning("BUFFERS_ABOVE_NEED", String.format(
                    "the %s baseline (%s) is %.0fx what this path needs per stream (%s); on hosts with many concurrent "
                            + "connections consider the smaller value", NicSpeed.format(nicMbps), human(autotuneMax),
                    (double) autotuneMax / Math.max(perStream, 1), human(perStream))));
        }
        if (mtu != null && mtu < 9000 && nicMbps >= 10_000) {
            warnings.add(new Recommendation.Warning("SMALL_MTU", "MTU " + mtu + " at " + NicSpeed.format(nicMbps)
                    + " costs CPU per packet; use 9000 where the whole path allows it"));
        }
        Recommendation.Inputs inputs = new Recommendation.Inputs(nicMbps, rttMs, n, streams != null, mtu, cc);
        return new Recommendation(inputs, bdp, perStream, new ProfileSettings(sysctls, iface), reasons, warnings);
    }

    /** The autotuning maximum a NIC class starts from, whatever the RTT (fasterdata's per-class baseline). */
    static long floorFor(int nicMbps) {
        if (nicMbps >= 100_000) {
            return AUTOTUNE_CAP;
        }
        if (nicMbps >= 40_000) {
            return 128 * MIB;
        }
        if (nicMbps >= 10_000) {
            return 64 * MIB;
        }
        return 16 * MIB;
    }

    static long powerOfTwoAtLeast(long n) {
        long p = MIB;
        while (p < n) {
            p <<= 1;
        }
        return p;
    }

    public static String human(long bytes) {
        if (bytes >= (1L << 30) && bytes % (1L << 30) == 0) {
            return (bytes >> 30) + " GiB";
        }
        if (bytes >= MIB) {
            return String.format("%.1f MiB", bytes / (double) MIB).replace(".0 ", " ");
        }
        if (bytes >= 1024) {
            return String.format("%.1f KiB", bytes / 1024.0).replace(".0 ", " ");
        }
        return bytes + " B";
    }
}
