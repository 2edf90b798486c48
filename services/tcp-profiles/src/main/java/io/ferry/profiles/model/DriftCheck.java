package io.ferry.profiles.model;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Differences between what a profile says and what a host reported it runs. */
public final class DriftCheck {

    /** One setting that differs; {@code observed} is null when the host did not report it. */
    public record Difference(String setting, String expected, @Schema(nullable = true) String observed,
                             @Schema(nullable = true) String interfaceName) {
    }

    private DriftCheck() {
    }

    public static List<Difference> compare(ProfileSettings expected, ObservedHost observed) {
        List<Difference> out = new ArrayList<>();
        expected.sysctls().forEach((key, want) -> {
            String have = observed.sysctls().get(key);
            if (!SysctlCatalog.sameValue(want, have)) {
                out.add(new Difference("sysctls." + key, normalise(want), have == null ? null : normalise(have), null));
            }
        });
        if (!expected.interfaceSettings().isEmpty()) {
            for (Map.Entry<String, Map<String, Integer>> iface : dataInterfaces(observed).entrySet()) {
                expected.interfaceSettings().forEach((key, want) -> {
                    Integer have = iface.getValue().get(key);
                    if (!want.equals(have)) {
                        out.add(new Difference("interface." + key, String.valueOf(want),
                                have == null ? null : String.valueOf(have), iface.getKey()));
                    }
                });
            }
        }
        return out;
    }

    /**
     * The interfaces data moves over: the ones that are up and not loopback (all non-loopback ones when none is
     * up), without virtual bridges and veths, whose settings follow their parents.
     */
    static Map<String, Map<String, Integer>> dataInterfaces(ObservedHost observed) {
        Map<String, Map<String, Integer>> candidates = new java.util.LinkedHashMap<>();
        observed.interfaces().forEach((name, attrs) -> {
            boolean loopback = attrs.getOrDefault("loopback", 0) == 1 || name.equals("lo");
            boolean virtual = name.startsWith("veth") || name.startsWith("docker") || name.startsWith("br-")
                    || name.startsWith("virbr") || name.startsWith("cni") || name.startsWith("flannel");
            if (!loopback && !virtual) {
                candidates.put(name, attrs);
            }
        });
        Map<String, Map<String, Integer>> up = new java.util.LinkedHashMap<>();
        candidates.forEach((name, attrs) -> {
            if (attrs.getOrDefault("up", 0) == 1) {
                up.put(name, attrs);
            }
        });
        return up.isEmpty() ? candidates : up;
    }

    private static String normalise(String v) {
        return String.join(" ", v.trim().split("\\s+"));
    }
}
