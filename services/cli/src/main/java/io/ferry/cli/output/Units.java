package io.ferry.cli.output;

import java.time.Duration;
import java.util.Locale;

/** Human units: sizes in binary multiples (KiB, MiB, GiB), rates in decimal MB/s as transfer tools quote them, durations. */
public final class Units {

    private static final String[] BINARY = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};

    private Units() {
    }

    public static String bytes(long n) {
        if (n < 1024) {
            return n + " B";
        }
        double v = n;
        int unit = 0;
        while (v >= 1024 && unit < BINARY.length - 1) {
            v /= 1024;
            unit++;
        }
        return String.format(Locale.ROOT, v < 10 ? "%.2f %s" : v < 100 ? "%.1f %s" : "%.0f %s", v, BINARY[unit]);
    }

    public static String rate(double bytesPerSecond) {
        double mb = bytesPerSecond / 1_000_000d;
        if (mb >= 1000) {
            return String.format(Locale.ROOT, "%.2f GB/s", mb / 1000);
        }
        if (mb >= 0.1) {
            return String.format(Locale.ROOT, mb < 10 ? "%.2f MB/s" : "%.1f MB/s", mb);
        }
        return String.format(Locale.ROOT, "%.1f kB/s", bytesPerSecond / 1000);
    }

    public static String duration(Duration d) {
        long s = Math.max(0, d.toSeconds());
        if (s < 60) {
            return s + "s";
        }
        if (s < 3600) {
            return (s / 60) + "m" + String.format(Locale.ROOT, "%02ds", s % 60);
        }
        if (s < 86_400) {
            return (s / 3600) + "h" + String.format(Locale.ROOT, "%02dm", s % 3600 / 60);
        }
        return (s / 86_400) + "d" + String.format(Locale.ROOT, "%02dh", s % 86_400 / 3600);
    }
}
