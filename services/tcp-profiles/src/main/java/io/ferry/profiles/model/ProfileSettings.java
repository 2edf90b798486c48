package io.ferry.profiles.model;

import java.util.Map;
import java.util.TreeMap;

/**
 * What a TCP profile sets: kernel sysctls (values as sysctl writes them, triples space-separated) and
 * interface settings ({@code txqueuelen}, {@code mtu}).
 */
public record ProfileSettings(Map<String, String> sysctls, Map<String, Integer> interfaceSettings) {

    public ProfileSettings {
        sysctls = sysctls == null ? new TreeMap<>() : new TreeMap<>(sysctls);
        interfaceSettings = interfaceSettings == null ? new TreeMap<>() : new TreeMap<>(interfaceSettings);
    }

    public static ProfileSettings empty() {
        return new ProfileSettings(Map.of(), Map.of());
    }

    /** This profile's settings over a parent's: the child wins key by key. */
    public ProfileSettings over(ProfileSettings parent) {
        Map<String, String> s = new TreeMap<>(parent.sysctls);
        s.putAll(sysctls);
        Map<String, Integer> i = new TreeMap<>(parent.interfaceSettings);
        i.putAll(interfaceSettings);
        return new ProfileSettings(s, i);
    }
}
