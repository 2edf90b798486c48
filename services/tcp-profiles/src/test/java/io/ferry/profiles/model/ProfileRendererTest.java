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
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
