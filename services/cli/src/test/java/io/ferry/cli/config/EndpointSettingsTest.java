package io.ferry.cli.config;

import io.ferry.cli.auth.Environment;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class EndpointSettingsTest {

    @Test
    void flagThenEnvironmentThenFileThenLocalStackThenDefaults() {
        Properties stack = new Properties();
        stack.setProperty("transfer-scheduler", "http://localhost:18081");
        stack.setProperty("handle-resolver", "http://localhost:18083");
        stack.setProperty("rate-aggregator", "http://localhost:18084");
        Map<String, String> file = TomlSubset.parse("""
                # Ferry endpoints
                [endpoints]
                scheduler = "https://fts.example:8446"   # a comment
                resolver = 'https://handles.example'
                """);
        EndpointSettings settings = new EndpointSettings(new Environment(Map.of("FERRY_SCHEDULER_URL", "https://env.example"), 1), file, stack);
        Map<String, String> flags = new HashMap<>();
        Endpoints e = settings.resolve(flags);
        assertEquals("https://env.example", e.scheduler());
        assertEquals("https://handles.example", e.resolver());
        assertEquals("http://localhost:18084", e.aggregator());
        assertEquals("http://localhost:8082", e.profiles());
        assertEquals("https://localhost:8446", e.schedulerHttps());
        flags.put("scheduler", "http://flag.example");
        assertEquals("http://flag.example", settings.resolve(flags).scheduler());
        assertEquals("https://fts.example:8446", new EndpointSettings(new Environment(Map.of(), 1), file, stack).resolve(Map.of()).scheduler());
    }

    @Test
    void tomlSubset() {
        Map<String, String> v = TomlSubset.parse("top = 1\n[auth]\ncapath = \"/etc/grid-security/certificates\"\nquoted = \"a # not a comment \\\"x\\\"\"\n");
        assertEquals("1", v.get("top"));
        assertEquals("/etc/grid-security/certificates", v.get("auth.capath"));
        assertEquals("a # not a comment \"x\"", v.get("auth.quoted"));
        assertEquals("line 2: only strings, numbers and booleans are read here",
                assertThrows(IllegalArgumentException.class, () -> TomlSubset.parse("[endpoints]\nx = [1, 2]")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> TomlSubset.parse("x = \"open"));
        assertThrows(IllegalArgumentException.class, () -> TomlSubset.parse("just words"));
    }
}
