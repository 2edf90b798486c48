package io.ferry.profiles.model;

import io.ferry.problem.Problem;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The settings a Ferry profile may carry and what makes their values valid. Unknown keys are refused: a typo in
 * a sysctl name would otherwise be silently ignored by the kernel and the host left untuned.
 */
public final class SysctlCatalog {

    /** Linux caps socket buffers at INT_MAX. */
    public static final long MAX_BUFFER = 2_147_483_647L;

    enum Kind { BUFFER, BUFFER_TRIPLE, PAGES_TRIPLE, COUNT, BOOLEAN, MTU_PROBING, CONGESTION, QDISC }

    private static final Map<String, Kind> KEYS = new TreeMap<>(Map.ofEntries(
            Map.entry("net.core.rmem_max", Kind.BUFFER),
            Map.entry("net.core.wmem_max", Kind.BUFFER),
            Map.entry("net.core.rmem_default", Kind.BUFFER),
            Map.entry("net.core.wmem_default", Kind.BUFFER),
            Map.entry("net.core.optmem_max", Kind.BUFFER),
            Map.entry("net.ipv4.tcp_rmem", Kind.BUFFER_TRIPLE),
            Map.entry("net.ipv4.tcp_wmem", Kind.BUFFER_TRIPLE),
            Map.entry("net.ipv4.tcp_mem", Kind.PAGES_TRIPLE),
            Map.entry("net.ipv4.udp_mem", Kind.PAGES_TRIPLE),
            Map.entry("net.ipv4.tcp_congestion_control", Kind.CONGESTION),
            Map.entry("net.core.default_qdisc", Kind.QDISC),
            Map.entry("net.ipv4.tcp_mtu_probing", Kind.MTU_PROBING),
            Map.entry("net.core.netdev_max_backlog", Kind.COUNT),
            Map.entry("net.core.netdev_budget", Kind.COUNT),
            Map.entry("net.core.somaxconn", Kind.COUNT),
            Map.entry("net.ipv4.tcp_max_syn_backlog", Kind.COUNT),
            Map.entry("net.ipv4.tcp_no_metrics_save", Kind.BOOLEAN),
            Map.entry("net.ipv4.tcp_window_scaling", Kind.BOOLEAN),
            Map.entry("net.ipv4.tcp_timestamps", Kind.BOOLEAN),
            Map.entry("net.ipv4.tcp_sack", Kind.BOOLEAN),
            Map.entry("net.ipv4.tcp_moderate_rcvbuf", Kind.BOOLEAN),
            Map.entry("net.ipv4.tcp_low_latency", Kind.BOOLEAN),
            Map.entry("net.ipv4.tcp_slow_start_after_idle", Kind.BOOLEAN),
            Map.entry("net.ipv4.tcp_adv_win_scale", Kind.COUNT),
            Map.entry("net.ipv4.tcp_notsent_lowat", Kind.BUFFER)));

    public static final Set<String> CONGESTION_CONTROLS = Set.of("reno", "cubic", "htcp", "bbr", "bbr2", "bic",
            "hybla", "illinois", "scalable", "vegas", "westwood", "dctcp", "highspeed");
    public static final Set<String> QDISCS = Set.of("fq", "fq_codel", "pfifo_fast", "cake", "sfq", "codel", "mq");
    public static final Set<String> INTERFACE_KEYS = Set.of("txqueuelen", "mtu");
    /** The interface settings' ranges: an Ethernet MTU (IPv4's minimum to jumbo frames), a transmit queue length. */
    public static final int MTU_MIN = 576;
    public static final int MTU_MAX = 9216;
    public static final int TXQUEUELEN_MAX = 1_000_000;

    /** 0 to 2147483647, written without leading zeros. */
    private static final String INT31 = "(0|[1-9][0-9]{0,8}|1[0-9]{9}|20[0-9]{8}|21[0-3][0-9]{7}|214[0-6][0-9]{6}"
            + "|2147[0-3][0-9]{5}|21474[0-7][0-9]{4}|214748[0-2][0-9]{3}|2147483[0-5][0-9]{2}|21474836[0-3][0-9]|214748364[0-7])";

    private SysctlCatalog() {
    }

    /**
     * The values {@link #problem} takes for {@code key}, as an anchored regular expression for the OpenAPI document,
     * or null where the values are a fixed set ({@link #choices}). A triple's order (min <= default <= max) and a
     * default's bound by its maximum are beyond a regular expression.
     */
    public static String syntax(String key) {
        String n = "[0-9]{1,18}";
        return switch (KEYS.get(key)) {
            case BUFFER, COUNT -> "^ *" + INT31 + " *$";
            case BOOLEAN -> "^ *[01] *$";
            case MTU_PROBING -> "^ *[012] *$";
            case BUFFER_TRIPLE -> "^ *" + INT31 + "[ \\t]+" + INT31 + "[ \\t]+" + INT31 + " *$";
            case PAGES_TRIPLE -> "^ *" + n + "[ \\t]+" + n + "[ \\t]+" + n + " *$";
            case CONGESTION, QDISC -> null;
        };
    }

    /** The values {@code key} takes when they are a fixed set, else null. */
    public static Set<String> choices(String key) {
        return switch (KEYS.get(key)) {
            case CONGESTION -> CONGESTION_CONTROLS;
            case QDISC -> QDISCS;
            default -> null;
        };
    }

    public static Set<String> knownKeys() {
        return KEYS.keySet();
    }

    /** The errors of {@code settings}, each under the field that holds it; empty when valid. */
    public static List<Problem.FieldError> validate(ProfileSettings settings) {
        List<Problem.FieldError> errors = new ArrayList<>();
        settings.sysctls().forEach((key, value) -> {
            String field = "sysctls." + key;
            Kind kind = KEYS.get(key);
            if (kind == null) {
                errors.add(new Problem.FieldError(field, "unknown sysctl; known keys: " + String.join(", ", KEYS.keySet())));
                return;
            }
            String problem = problem(key, value);
            if (problem != null) {
                errors.add(new Problem.FieldError(field, problem));
            }
        });
        settings.interfaceSettings().forEach((key, value) -> {
            String field = "interface." + key;
            if (!INTERFACE_KEYS.contains(key)) {
                errors.add(new Problem.FieldError(field, "unknown interface setting; known: txqueuelen, mtu"));
            } else if (value == null) {
                errors.add(new Problem.FieldError(field, "needs a number"));
            } else if (key.equals("mtu") && (value < MTU_MIN || value > MTU_MAX)) {
                errors.add(new Problem.FieldError(field, "MTU must be between " + MTU_MIN + " and " + MTU_MAX));
            } else if (key.equals("txqueuelen") && (value < 0 || value > TXQUEUELEN_MAX)) {
                errors.add(new Problem.FieldError(field, "txqueuelen must be between 0 and " + TXQUEUELEN_MAX));
            }
        });
        checkDefaultAgainstMax(settings, "net.core.rmem_default", "net.core.rmem_max", errors);
        checkDefaultAgainstMax(settings, "net.core.wmem_default", "net.core.wmem_max", errors);
        return errors;
    }

    /**
     * Why {@code value} may not be set for {@code key}, or null when it may. A value is one line: tabs may separate
     * a triple's numbers (as {@code sysctl -a} prints them), no other control character may appear.
     */
    public static String problem(String key, String value) {
        Kind kind = KEYS.get(key);
        if (kind == null) {
            return "unknown sysctl";
        }
        String v = value == null ? "" : value;
        if (!ConfigText.isSingleLine(v.replace('\t', ' '))) {
            return "must be one line without control characters";
        }
        return check(kind, v.trim());
    }

    /** A valid value as it is written out: one space between a triple's numbers. */
    public static String normalized(String value) {
        return String.join(" ", value.trim().split("[ \t]+"));
    }

    private static String check(Kind kind, String value) {
        return switch (kind) {
            case BUFFER -> buffer(value);
            case COUNT -> {
                Long n = parse(value);
                yield n == null || n < 0 || n > Integer.MAX_VALUE ? "must be a whole number from 0 to 2147483647" : null;
            }
            case BOOLEAN -> value.equals("0") || value.equals("1") ? null : "must be 0 or 1";
            case MTU_PROBING -> value.matches("[012]") ? null : "must be 0, 1 or 2";
            case CONGESTION -> CONGESTION_CONTROLS.contains(value) ? null
                    : "unknown congestion control; one of " + String.join(", ", new java.util.TreeSet<>(CONGESTION_CONTROLS));
            case QDISC -> QDISCS.contains(value) ? null : "unknown qdisc; one of " + String.join(", ", new java.util.TreeSet<>(QDISCS));
            case BUFFER_TRIPLE, PAGES_TRIPLE -> triple(value, kind == Kind.BUFFER_TRIPLE);
        };
    }

    private static String buffer(String value) {
        Long n = parse(value);
        if (n == null) {
            return "must be a number of bytes";
        }
        if (n < 0 || n > MAX_BUFFER) {
            return "must be between 0 and 2147483647 bytes (2 GiB - 1)";
        }
        return null;
    }

    private static String triple(String value, boolean bytes) {
        String[] parts = value.split("[ \t]+");
        if (parts.length != 3) {
            return "must be three numbers: min default max";
        }
        long[] n = new long[3];
        for (int i = 0; i < 3; i++) {
            Long v = parse(parts[i]);
            if (v == null || v < 0) {
                return "must be three non-negative numbers: min default max";
            }
            if (bytes && v > MAX_BUFFER) {
                return "each value must be at most 2147483647 bytes (2 GiB - 1)";
            }
            n[i] = v;
        }
        if (n[0] > n[1] || n[1] > n[2]) {
            return "must satisfy min <= default <= max, got " + value;
        }
        return null;
    }

    private static void checkDefaultAgainstMax(ProfileSettings s, String defaultKey, String maxKey, List<Problem.FieldError> errors) {
        Long def = parse(s.sysctls().get(defaultKey));
        Long max = parse(s.sysctls().get(maxKey));
        if (def != null && max != null && def > max) {
            errors.add(new Problem.FieldError("sysctls." + defaultKey, "must not exceed " + maxKey + " (" + max + ")"));
        }
    }

    static Long parse(String s) {
        if (s == null) {
            return null;
        }
        try {
            return Long.parseLong(s.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** The maximum (third) value of a triple such as tcp_rmem, or the value itself; null when absent. */
    public static Long maxOf(String value) {
        if (value == null) {
            return null;
        }
        String[] parts = value.trim().split("\\s+");
        return parse(parts[parts.length - 1]);
    }

    /** Values equal as the kernel reads them: whitespace and tabs in triples do not matter. */
    public static boolean sameValue(String a, String b) {
        if (a == null || b == null) {
            return a == null && b == null;
        }
        return String.join(" ", a.trim().split("\\s+")).equals(String.join(" ", b.trim().split("\\s+")));
    }
}
