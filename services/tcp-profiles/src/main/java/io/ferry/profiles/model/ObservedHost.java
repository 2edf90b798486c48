package io.ferry.profiles.model;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a host really runs, read from the raw text of {@code sysctl -a} and {@code ip link}.
 *
 * @param interfaces interface name -> {mtu, txqueuelen, up (1/0)}
 */
public record ObservedHost(Map<String, String> sysctls, Map<String, Map<String, Integer>> interfaces) {

    /** Parses {@code sysctl -a} ("key = value" lines; permission-denied and blank lines are skipped). */
    public static Map<String, String> parseSysctl(String text) {
        Map<String, String> out = new TreeMap<>();
        if (text == null) {
            return out;
        }
        for (String line : text.split("\\R")) {
            int eq = line.indexOf(" = ");
            int sep = eq >= 0 ? eq : line.indexOf('=');
            if (sep <= 0 || line.startsWith("sysctl:")) {
                continue;
            }
            String key = line.substring(0, sep).trim();
            String value = line.substring(sep + (eq >= 0 ? 3 : 1)).trim();
            if (key.matches("[a-z0-9_./-]+")) {
                out.put(key.replace('/', '.'), String.join(" ", value.split("\\s+")));
            }
        }
        return out;
    }

    /**
     * Parses {@code ip link} output: "2: eth0: &lt;BROADCAST,MULTICAST,UP,LOWER_UP&gt; mtu 9000 qdisc fq state UP mode
     * DEFAULT group default qlen 10000".
     */
    public static Map<String, Map<String, Integer>> parseIpLink(String text) {
        Map<String, Map<String, Integer>> out = new LinkedHashMap<>();
        if (text == null) {
            return out;
        }
        for (String line : text.split("\\R")) {
            var m = java.util.regex.Pattern.compile("^\\d+:\\s+([^:@\\s]+)(?:@[^:]+)?:\\s+<([^>]*)>(.*)$").matcher(line);
            if (!m.find()) {
                continue;
            }
            Map<String, Integer> attrs = new TreeMap<>();
            String rest = m.group(3);
            // An int's worth of digits: a longer number is no MTU or queue length, and is left out like any other noise.
            var mtu = java.util.regex.Pattern.compile("\\bmtu (\\d{1,9})\\b").matcher(rest);
            if (mtu.find()) {
                attrs.put("mtu", Integer.parseInt(mtu.group(1)));
            }
            var qlen = java.util.regex.Pattern.compile("\\bqlen (\\d{1,9})\\b").matcher(rest);
            if (qlen.find()) {
                attrs.put("txqueuelen", Integer.parseInt(qlen.group(1)));
            }
            boolean up = java.util.Arrays.asList(m.group(2).split(",")).contains("UP");
            attrs.put("up", up ? 1 : 0);
            attrs.put("loopback", m.group(2).contains("LOOPBACK") ? 1 : 0);
            out.put(m.group(1), attrs);
        }
        return out;
    }
}
