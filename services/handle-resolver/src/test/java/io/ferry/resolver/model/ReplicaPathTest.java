package io.ferry.resolver.model;

import io.ferry.storageurl.InvalidStorageUrl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Replica paths in the canonical storage form, and transport URLs that never leave the SE's base. */
class ReplicaPathTest {

    @ParameterizedTest
    @ValueSource(strings = {"%2E%2e/outside/x", "..%2f/outside/x", "%2e./outside/x", ".%2e/outside/x", "a/%2E%2E/%2e%2e/x", "../x",
            "a/./b", "a%2Fb", "a%5Cb", "a%00b", "a;b/x", "a/b;jsessionid=1", "a?b", "a#b", "%zz", "%C0%AE%C0%AE/x", "a\\b", "/", ""})
    void pathsThatCouldMeanSomethingElseToAServerAreRefused(String path) {
        assertThrows(InvalidStorageUrl.class, () -> ReplicaPath.canonical(path), path);
    }

    @Test
    void pathsAreStoredCanonically() {
        assertEquals("data18/f1", ReplicaPath.canonical("data18/f1"));
        assertEquals("data18/f1", ReplicaPath.canonical("//data18//f1"));
        assertEquals("a%20b/%C3%A9", ReplicaPath.canonical("a%20b/%c3%a9"));
        assertEquals("a.b/...", ReplicaPath.canonical("a.b/..."));
    }

    @Test
    void aTransportUrlLiesBelowTheBaseOrIsNone() {
        assertEquals(Optional.of("https://echo.ral.example/atlas/data18/f1"), ReplicaPath.turl("https://echo.ral.example/atlas", "data18/f1"));
        assertEquals(Optional.of("https://eos.cern.example/eos/data18/f1"), ReplicaPath.turl("https://eos.cern.example:443/eos/", "/data18/f1"));
        assertEquals(Optional.of("root://eos.cern.example/eos/f"), ReplicaPath.turl("root://eos.cern.example//eos", "f"));
        // rows stored before paths were checked never become transport URLs
        assertEquals(Optional.empty(), ReplicaPath.turl("https://echo.ral.example/atlas", "%2E%2e/outside/x"));
        assertEquals(Optional.empty(), ReplicaPath.turl("https://echo.ral.example/atlas", "../outside/x"));
        assertEquals(Optional.empty(), ReplicaPath.turl("https://echo.ral.example/atlas", ""));
        assertEquals(Optional.empty(), ReplicaPath.turl("not a url", "f"));
        assertEquals(Optional.empty(), ReplicaPath.turl(null, "f"));
    }
}
