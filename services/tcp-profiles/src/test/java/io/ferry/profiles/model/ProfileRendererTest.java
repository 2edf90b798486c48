package io.ferry.profiles.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Golden files for the three renderings; the Tuned CR must parse as YAML of the right apiVersion/kind. */
class ProfileRendererTest {

    static ProfileRenderer.Subject subject() throws IOException {
        ProfileSettings base = new ProfileSettings(Map.of("net.core.default_qdisc", "fq", "net.ipv4.tcp_mtu_probing", "1",
                "net.ipv4.tcp_congestion_control", "htcp"), Map.of());
        ProfileSettings wan = new ProfileSettings(Map.of("net.core.rmem_max", "134217728", "net.core.wmem_max", "134217728",
                "net.ipv4.tcp_rmem", "4096 87380 67108864", "net.ipv4.tcp_wmem", "4096 65536 67108864"), Map.of("txqueuelen", 10000));
        List<ProfileRenderer.Layer> chain = List.of(
                new ProfileRenderer.Layer("wan-10g", 3, "10G WAN disk servers up to 100 ms", "base", wan),
                new ProfileRenderer.Layer("base", 1, "fq, htcp, MTU probing", null, base));
        JsonNode selector = new ObjectMapper().readTree("{\"role\":\"disk-server\",\"pool\":[\"wan-in\",\"wan-out\"]}");
        return new ProfileRenderer.Subject("gridftp01.ral.example", chain, wan.over(base), "wan-disk-servers", 10, selector);
    }

    static void assertGolden(String name, String actual) throws IOException {
        Path overwrite = Path.of("target", "golden-actual", name);
        Files.createDirectories(overwrite.getParent());
        Files.writeString(overwrite, actual);
        try (InputStream in = ProfileRendererTest.class.getResourceAsStream("/golden/" + name)) {
            String expected = in == null ? "(missing golden file " + name + ")" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(expected, actual, "rendering differs from src/test/resources/golden/" + name
                    + " (actual output in " + overwrite + ")");
        }
    }

    @Test
    void sysctlFileIsFlattened() throws IOException {
        assertGolden("wan-10g.sysctl.conf", ProfileRenderer.sysctl(subject()));
    }

    @Test
    void tunedConfIncludesTheParentProfile() throws IOException {
        assertGolden("wan-10g.tuned.conf", ProfileRenderer.tuned(subject()));
    }

    @Test
    void tunedCustomResource() throws IOException {
        String cr = ProfileRenderer.tunedCr(subject());
        assertGolden("wan-10g.tuned-cr.yaml", cr);
        JsonNode parsed = new ObjectMapper(new YAMLFactory()).readTree(cr);
        assertEquals("tuned.openshift.io/v1", parsed.get("apiVersion").asText());
        assertEquals("Tuned", parsed.get("kind").asText());
        assertEquals(2, parsed.at("/spec/profile").size());
        assertEquals("ferry-wan-10g", parsed.at("/spec/recommend/0/profile").asText());
        assertEquals(10, parsed.at("/spec/recommend/0/priority").asInt());
        // role=disk-server AND pool in (wan-in, wan-out): one entry with two nested alternatives
        assertEquals("role", parsed.at("/spec/recommend/0/match/0/label").asText());
        assertEquals(2, parsed.at("/spec/recommend/0/match/0/match").size());
        assertEquals("include=ferry-base", parsed.at("/spec/profile/0/data").asText().lines()
                .filter(l -> l.startsWith("include=")).findFirst().orElse(""));
    }

    /** Every line break sysctl, Python (TuneD) or YAML would see. */
    static final String LINE_BREAKS = "\\r\\n|[\\n\\r\\u000B\\u000C\\u001C\\u001D\\u001E\\u0085\\u2028\\u2029]";

    /**
     * Stored text that an attacker (or a row from before input checks) put line breaks into: the summary, the host
     * and rule names, setting values, and a selector's keys and values. No rendering may carry a setting the
     * allow-list did not admit, and the Tuned CR must read back exactly as the selector was written.
     */
    @Test
    void storedLineBreaksSmuggleNoSettingIntoAnyRendering() throws IOException {
        Map<String, String> sysctls = new LinkedHashMap<>();
        sysctls.put("net.core.rmem_max", "134217728");
        sysctls.put("net.ipv4.tcp_sack", "1\nnet.ipv4.ip_forward=1");
        sysctls.put("net.ipv4.tcp_rmem", "4096\t87380 67108864");
        sysctls.put("net.ipv4.tcp_wmem", "4096 65536\r\nnet.ipv4.conf.all.rp_filter=0");
        sysctls.put("net.ipv4.ip_forward", "1");
        ProfileSettings own = new ProfileSettings(sysctls, Map.of("mtu", 9000));
        String summary = "fast\rnet.ipv4.ip_forward=1\nnet.core.rmem_max=1\u2028net.core.wmem_max=1\u0085[sysctl]\n${f:exec:/bin/sh}";
        List<ProfileRenderer.Layer> chain = List.of(new ProfileRenderer.Layer("wan", 2, summary, null, own));
        JsonNode selector = new ObjectMapper().readTree("{\"role\\n        - label: evil\":\"x\","
                + "\"pool\":[\"wan-in\\\"\\n  - label: injected\\n    value: x\",\"a\\\\\",\"y\"],\"site\":\"RAL\\u0085net.core.somaxconn=1\"}");
        ProfileRenderer.Subject s = new ProfileRenderer.Subject("h1\rnet.ipv4.conf.all.rp_filter=0", chain, own,
                "r\nnet.core.somaxconn=1", 5, selector);
        Map<String, String> allowed = Map.of("net.core.rmem_max", "134217728", "net.ipv4.tcp_rmem", "4096 87380 67108864");

        assertEquals(allowed, sysctlLines(ProfileRenderer.sysctl(s), " = "));
        assertIni(ProfileRenderer.tuned(s), allowed);

        JsonNode cr = new ObjectMapper(new YAMLFactory()).readTree(ProfileRenderer.tunedCr(s));
        assertEquals(Set.of("apiVersion", "kind", "metadata", "spec"), names(cr));
        assertEquals(Set.of("profile", "recommend"), names(cr.get("spec")));
        assertEquals(1, cr.at("/spec/profile").size());
        assertEquals(Set.of("name", "data"), names(cr.at("/spec/profile/0")));
        assertIni(cr.at("/spec/profile/0/data").asText(), allowed);
        assertEquals(1, cr.at("/spec/recommend").size());
        assertEquals(Set.of("priority", "profile", "match"), names(cr.at("/spec/recommend/0")));
        // role AND pool (3 alternatives) AND site: each label and value read back exactly as written, nothing added.
        List<String> matched = new ArrayList<>();
        collectMatches(cr.at("/spec/recommend/0/match"), "", matched);
        assertEquals(List.of(
                "role\n        - label: evil=x/pool=wan-in\"\n  - label: injected\n    value: x/ferry.io/site=RAL\u0085net.core.somaxconn=1",
                "role\n        - label: evil=x/pool=a\\/ferry.io/site=RAL\u0085net.core.somaxconn=1",
                "role\n        - label: evil=x/pool=y/ferry.io/site=RAL\u0085net.core.somaxconn=1"), matched);
    }

    /** The settings lines of a rendering (comments and blank lines aside), as sysctl or an ini parser splits them. */
    static Map<String, String> sysctlLines(String text, String separator) {
        Map<String, String> out = new TreeMap<>();
        for (String line : text.split(LINE_BREAKS, -1)) {
            if (line.isBlank() || line.startsWith("#") || line.startsWith(";")) {
                continue;
            }
            int eq = line.indexOf(separator);
            assertTrue(eq > 0, "not a setting: '" + line + "' in\n" + text);
            String key = line.substring(0, eq).strip();
            assertTrue(SysctlCatalog.knownKeys().contains(key), "a key outside the allow-list: " + key);
            assertEquals(null, out.put(key, line.substring(eq + separator.length()).strip()), "set twice: " + key);
        }
        return out;
    }

    /** A TuneD profile as Python's configparser reads it: known sections and keys only, no continuation lines. */
    static void assertIni(String text, Map<String, String> expectedSysctls) {
        Map<String, StringBuilder> sections = new LinkedHashMap<>();
        StringBuilder current = null;
        for (String line : text.split(LINE_BREAKS, -1)) {
            if (line.isEmpty() || line.startsWith("#") || line.startsWith(";")) {
                continue;
            }
            assertTrue(!Character.isWhitespace(line.charAt(0)), "a continuation line extends a value: '" + line + "'");
            if (line.startsWith("[")) {
                assertTrue(Set.of("[main]", "[sysctl]", "[net]").contains(line), "an unexpected section " + line);
                current = sections.computeIfAbsent(line, k -> new StringBuilder());
                continue;
            }
            assertTrue(current != null, "a line before any section: " + line);
            current.append(line).append('\n');
        }
        for (String line : sections.get("[main]").toString().split("\n")) {
            assertTrue(line.startsWith("summary=") || line.startsWith("include="), "unexpected in [main]: " + line);
            assertTrue(!line.contains("${"), "TuneD would expand: " + line);
        }
        assertEquals(expectedSysctls, sysctlLines(sections.getOrDefault("[sysctl]", new StringBuilder()).toString(), "="));
        for (String line : sections.getOrDefault("[net]", new StringBuilder()).toString().split("\n")) {
            assertTrue(line.isEmpty() || line.matches("(mtu|txqueuelen)=\\d+"), "unexpected in [net]: " + line);
        }
    }

    static Set<String> names(JsonNode node) {
        Set<String> out = new java.util.TreeSet<>();
        node.fieldNames().forEachRemaining(out::add);
        return out;
    }

    /** Each path through the nested match list as label=value/label=value/... */
    static void collectMatches(JsonNode list, String prefix, List<String> out) {
        for (JsonNode m : list) {
            Iterator<String> fields = m.fieldNames();
            fields.forEachRemaining(f -> assertTrue(Set.of("label", "value", "match").contains(f), "unexpected key in a match: " + f));
            String here = prefix + m.get("label").asText() + (m.has("value") ? "=" + m.get("value").asText() : "");
            if (m.has("match")) {
                collectMatches(m.get("match"), here + "/", out);
            } else {
                out.add(here);
            }
        }
    }
}
