package io.ferry.storageurl;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StorageUrlTest {

    private static final StorageUrl SE_A = StorageUrl.parse("http://host:8080/se-a/");

    @ParameterizedTest
    @ValueSource(strings = {
            "http://host:8080/se-a/%2E%2e/outside/x", "http://host:8080/se-a/..%2foutside/x",
            "http://host:8080/se-a/%2e./outside/x", "http://host:8080/se-a/.%2e/outside/x",
            "http://host:8080/se-a/../outside/x", "http://host:8080/se-a/./x", "http://host:8080/se-a/%2e/x",
            "http://host:8080/se-a/a%2Fb", "http://host:8080/se-a/a%5cb", "http://host:8080/se-a/a\\b",
            "http://host:8080/se-a/a%00b", "http://host:8080/se-a/a;jsessionid=1", "http://host:8080/se-a/a%3Bb",
            "http://host:8080/se-a/%", "http://host:8080/se-a/%zz", "http://host:8080/se-a/%C0%AE%C0%AE/x",
            "http://host:8080/se-a/%252e%252e/x", "http://host:8080/se-a/%25", "http://host:8080/se-a/a%C2%85b",
            "http://host:8080/se-a/%EF%BC%8E%EF%BC%8E/x", "http://host:8080/se-a/a%EF%BC%8Fb",
            "http://host:8080/se-a/%E2%80%A5/x", "http://host:8080/se-a/a%E2%88%95b", "http://host:8080/se-a/a%EF%BC%BCb",
            "http://user@host:8080/se-a/x", "http://host:8080/se-a/x?y", "http://host:8080/se-a/x#y",
            "http://host:8080/se-a/a b", "http://host:8080/se-a/a%0d%0aHost:evil", "host/se-a/x", "http://host:0/x",
            "http://host:99999/x", "http://ho%73t/x", "file://host:1/x", "1http://host/x", ""})
    void urlsThatCouldMeanAnotherPathOnTheServerHaveNoCanonicalForm(String raw) {
        assertThrows(InvalidStorageUrl.class, () -> StorageUrl.parse(raw));
    }

    @Test
    void everyDotSegmentSpellingIsRefusedAsADotSegment() {
        for (String dots : new String[]{"%2E%2e", "%2e.", ".%2e", "..", "%2E"}) {
            InvalidStorageUrl e = assertThrows(InvalidStorageUrl.class,
                    () -> StorageUrl.parse("http://host:8080/se-a/" + dots + "/outside/x"));
            assertEquals(InvalidStorageUrl.Reason.DOT_SEGMENT, e.reason(), dots);
        }
    }

    @ParameterizedTest
    @CsvSource({
            "HTTP://Host:80/se-a//b/c.root, http://host/se-a/b/c.root",
            "https://host:443/a%20b/%7Efile, https://host/a%20b/~file",
            "davs://HOST:443/dpm/x/, davs://host/dpm/x/",
            "http://host:8080/se-a/%C3%A9t%C3%A9, http://host:8080/se-a/%C3%A9t%C3%A9",
            "http://host:8080/se-a/dataset:file+1, http://host:8080/se-a/dataset:file+1",
            "file:///srv/data/x, file:///srv/data/x",
            "file://localhost/srv/data/x, file:///srv/data/x",
            "file:/srv/data/x, file:///srv/data/x",
            "http://[::1]:8080/x, http://[::1]:8080/x",
            "http://host, http://host/"})
    void theCanonicalFormIsOneSpellingPerLocation(String raw, String canonical) {
        assertEquals(canonical, StorageUrl.parse(raw).toString());
        assertEquals(canonical, StorageUrl.parse(canonical).toString(), "canonical is a fixed point");
    }

    @Test
    void pathsAreDecodedOnceForTheFileSystemAndMatching() {
        StorageUrl url = StorageUrl.parse("file:///srv/a%20b/%7Ex%C3%A9");
        assertEquals("/srv/a b/~x\u00e9", url.path());
        assertEquals("/srv/a%20b/~x%C3%A9", url.encodedPath());
        assertEquals("~x\u00e9", url.fileName());
    }

    @Test
    void withinIsSegmentWiseAndNeedsSameSchemeHostAndPort() {
        assertTrue(StorageUrl.parse("http://HOST:8080/se-a/x/y").isWithin(SE_A));
        assertTrue(StorageUrl.parse("http://host:8080/se-a/%78").isWithin(SE_A));
        assertEquals("x/y", StorageUrl.parse("http://host:8080/se-a/x/y").pathBelow(SE_A));
        assertFalse(StorageUrl.parse("http://host:8080/se-ab/x").isWithin(SE_A));
        assertFalse(StorageUrl.parse("http://host:8080/se-a/").isWithin(SE_A), "the base itself is no file below it");
        assertFalse(StorageUrl.parse("https://host:8080/se-a/x").isWithin(SE_A));
        assertFalse(StorageUrl.parse("http://host:8081/se-a/x").isWithin(SE_A));
        assertFalse(StorageUrl.parse("http://other:8080/se-a/x").isWithin(SE_A));
        assertTrue(StorageUrl.parse("http://host/x").isWithin(StorageUrl.parse("http://host:80/")));
    }

    @Test
    void resolveChecksEachSegmentLikeAParsedPath() {
        assertEquals("http://host:8080/se-a/atlas/a%20b", SE_A.resolve("/atlas/a b").toString());
        assertThrows(InvalidStorageUrl.class, () -> SE_A.resolve("atlas/%2E%2E"),
                "resolve takes a decoded path, and a literal percent sign would be an escape to a server decoding twice");
        assertThrows(InvalidStorageUrl.class, () -> SE_A.resolve("atlas/../../x"));
        assertThrows(InvalidStorageUrl.class, () -> SE_A.resolve("atlas/\u0000x"));
        assertThrows(InvalidStorageUrl.class, () -> SE_A.resolve("atlas\\..\\x"));
    }

    @Test
    void schemeChangeFoldsDefaultPorts() {
        assertEquals("https://host/x", StorageUrl.parse("davs://host/x").withScheme("https").toString());
        assertEquals("https://host:8443/x", StorageUrl.parse("davs://host:8443/x").withScheme("https").toString());
        assertEquals(443, StorageUrl.parse("davs://host/x").effectivePort());
    }

    @Test
    void overlongUrlsAreRefusedBeforeAnyWork() {
        String raw = "http://host/" + "a/".repeat(StorageUrl.MAX_LENGTH);
        assertEquals(InvalidStorageUrl.Reason.TOO_LONG,
                assertThrows(InvalidStorageUrl.class, () -> StorageUrl.parse(raw)).reason());
    }

    @Test
    void decodedPathsSplitIntoCheckedSegments() {
        assertEquals(java.util.List.of("atlas", "a b", "x"), StorageUrl.decodedSegments("/atlas//a b/x/"));
        assertEquals(java.util.List.of(), StorageUrl.decodedSegments("/"));
        for (String bad : new String[]{"/atlas/../cms", "./x", "/a\\b", "/a;b", "/a\u0000b", "/a\nb", "/%2E%2E/x", "/\uff0e\uff0e/x"}) {
            assertThrows(InvalidStorageUrl.class, () -> StorageUrl.decodedSegments(bad), bad);
        }
        assertThrows(InvalidStorageUrl.class, () -> StorageUrl.decodedSegments(null));
        assertEquals(InvalidStorageUrl.Reason.TOO_LONG,
                assertThrows(InvalidStorageUrl.class, () -> StorageUrl.decodedSegments("/a".repeat(StorageUrl.MAX_LENGTH))).reason());
    }
}
