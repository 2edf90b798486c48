package io.ferry.scheduler.credentials;

import io.ferry.storageurl.StorageUrl;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ExchangeScopeTest {

    @Test
    void aSourceIsReadAndADestinationModifiedAtThePathBelowTheSesBase() {
        List<String> bases = List.of("davs://other.example.org/x/", "https://se.example.org:8443/atlas/disk/");
        StorageUrl url = StorageUrl.parse("https://se.example.org:8443/atlas/disk/data/f1");
        assertEquals(new ExchangeScope("storage.read:/data/f1", "https://se.example.org:8443"), ExchangeScope.of(url, bases, true));
        assertEquals(new ExchangeScope("storage.modify:/data/f1", "https://se.example.org:8443"), ExchangeScope.of(url, bases, false));
    }

    @Test
    void aUrlBelowNoBaseIsScopedByItsWholePathAndTheDefaultPortIsNamed() {
        StorageUrl url = StorageUrl.parse("https://se.example.org/atlas/f");
        assertEquals(new ExchangeScope("storage.read:/atlas/f", "https://se.example.org:443"),
                ExchangeScope.of(url, List.of("https://se.example.org/atlasx/", "https://se.example.org/atlas/f"), true),
                "segment-wise: /atlasx is no base of /atlas, and a URL is not below itself");
    }

    @Test
    void filesOfOneSideAreCoveredByTheirCommonDirectoryAndTheRootWhenTheyShareNone() {
        ExchangeScope f0 = new ExchangeScope("storage.read:/run/a/f0", "https://se:443");
        assertEquals(f0, f0.widenedTo(f0), "one file: its own path");
        assertEquals(new ExchangeScope("storage.read:/run", "https://se:443"), f0.widenedTo(new ExchangeScope("storage.read:/run/b/f1", "https://se:443")));
        assertEquals(new ExchangeScope("storage.read:/run", "https://se:443"), f0.widenedTo(new ExchangeScope("storage.read:/run", "https://se:443")));
        assertEquals(new ExchangeScope("storage.read:/", "https://se:443"), f0.widenedTo(new ExchangeScope("storage.read:/runs/f1", "https://se:443")),
                "segment-wise: /runs does not share /run");
        assertThrows(IllegalArgumentException.class, () -> f0.widenedTo(new ExchangeScope("storage.modify:/run/a/f0", "https://se:443")));
        assertThrows(IllegalArgumentException.class, () -> f0.widenedTo(new ExchangeScope("storage.read:/run/a/f0", "https://other:443")));
    }
}
