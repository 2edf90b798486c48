package io.ferry.profiles.model;

import io.ferry.problem.ProblemException;

import java.util.Locale;

/** NIC speeds as sites write them ("10G", "100GbE", "1000M", "1 Gbit/s") in Mbit/s, and back. */
public final class NicSpeed {

    private NicSpeed() {
    }

    public static int parseMbps(String field, String text) {
        String t = text.trim().toUpperCase(Locale.ROOT).replace(" ", "")
                .replace("GBE", "G").replace("GBIT/S", "G").replace("GBPS", "G").replace("GB/S", "G")
                .replace("MBIT/S", "M").replace("MBPS", "M");
        try {
            long mbps;
            if (t.endsWith("G")) {
                mbps = Math.round(Double.parseDouble(t.substring(0, t.length() - 1)) * 1000);
            } else if (t.endsWith("M")) {
                mbps = Math.round(Double.parseDouble(t.substring(0, t.length() - 1)));
            } else {
                mbps = Math.round(Double.parseDouble(t));
            }
            if (mbps < 1 || mbps > 1_600_000) {
                throw ProblemException.badRequest(field, "NIC speed must be between 1 Mbit/s and 1.6 Tbit/s");
            }
            return (int) mbps;
        } catch (NumberFormatException e) {
            throw ProblemException.badRequest(field, "not a NIC speed: '" + text + "' (use 1G, 10G, 100G or Mbit/s)");
        }
    }

    public static String format(int mbps) {
        return mbps % 1000 == 0 ? (mbps / 1000) + "G" : mbps + "M";
    }
}
