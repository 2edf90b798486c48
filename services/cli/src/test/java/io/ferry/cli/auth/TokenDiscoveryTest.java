package io.ferry.cli.auth;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TokenDiscoveryTest {

    @TempDir
    Path dir;

    /** Every place holds a different token; each step down the WLCG order is taken once the ones above are gone. */
    @Test
    void followsTheWlcgOrder() throws Exception {
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        Path runtime = Files.createDirectories(dir.resolve("run"));
        Files.writeString(tmp.resolve("bt_u1234"), "from-tmp\n");
        Files.writeString(runtime.resolve("bt_u1234"), " from-runtime ");
        Path named = Files.writeString(dir.resolve("named"), "from-file\n");
        Map<String, String> vars = new HashMap<>(Map.of("BEARER_TOKEN", "from-variable", "BEARER_TOKEN_FILE", named.toString(),
                "XDG_RUNTIME_DIR", runtime.toString()));

        assertEquals("from-flag", find(vars, tmp, "from-flag").orElseThrow().bearer().orElseThrow());
        assertEquals("from-variable", find(vars, tmp, null).orElseThrow().bearer().orElseThrow());
        vars.remove("BEARER_TOKEN");
        assertEquals("from-file", find(vars, tmp, null).orElseThrow().bearer().orElseThrow());
        vars.remove("BEARER_TOKEN_FILE");
        Credential fromRuntime = find(vars, tmp, null).orElseThrow();
        assertEquals("from-runtime", fromRuntime.bearer().orElseThrow());
        assertEquals(runtime.resolve("bt_u1234").toString(), fromRuntime.source());
        Files.delete(runtime.resolve("bt_u1234"));
        assertEquals("from-tmp", find(vars, tmp, null).orElseThrow().bearer().orElseThrow());
        vars.remove("XDG_RUNTIME_DIR");
        assertEquals("from-tmp", find(vars, tmp, null).orElseThrow().bearer().orElseThrow());
        Files.delete(tmp.resolve("bt_u1234"));
        assertTrue(find(vars, tmp, null).isEmpty());
    }

    @Test
    void blankValuesAreNotTokens() throws Exception {
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        Files.writeString(tmp.resolve("bt_u1234"), "  \n");
        assertTrue(find(Map.of("BEARER_TOKEN", " "), tmp, " ").isEmpty());
    }

    @Test
    void aTokenFileThatCannotBeReadIsAnError() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> find(Map.of("BEARER_TOKEN_FILE", dir.resolve("missing").toString()), dir, null));
        assertTrue(e.getMessage().contains("BEARER_TOKEN_FILE"), e.getMessage());
    }

    @Test
    void aJwtsExpiryIsRead() {
        String payload = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString("{\"sub\":\"a\",\"exp\":1900000000}".getBytes());
        Credential c = Credential.token("eyJhbGciOiJSUzI1NiJ9." + payload + ".c2ln", "test");
        assertEquals(java.time.Instant.ofEpochSecond(1900000000), c.expires().orElseThrow());
        assertTrue(Credential.token("opaque", "test").expires().isEmpty());
    }

    @Test
    void aProxyIsFoundByVariableThenInTmp() throws Exception {
        Path p = Files.writeString(dir.resolve("x509up_u1234"), "x");
        assertEquals(Path.of("/elsewhere/proxy"), ProxyCredentials.find(null, new Environment(Map.of("X509_USER_PROXY", "/elsewhere/proxy"), 1234), dir).orElseThrow());
        assertEquals(p, ProxyCredentials.find(null, new Environment(Map.of(), 1234), dir).orElseThrow());
        assertTrue(ProxyCredentials.find(null, new Environment(Map.of(), 99), dir).isEmpty());
    }

    private static Optional<Credential> find(Map<String, String> vars, Path tmp, String flag) {
        return new TokenDiscovery(new Environment(Map.copyOf(vars), 1234), tmp).find(flag);
    }
}
