package io.ferry.scheduler.model;

import io.ferry.storageurl.StorageUrl;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
