package io.ferry.scheduler.storage;

import io.ferry.storageurl.StorageUrl;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which SE a URL belongs to, one URL at a time and through the index a submission builds once for all its URLs. */
class EndpointMatcherTest {

    record Se(String name, Map<String, String> baseUrls) {
    }

    static final List<Se> SES = List.of(
            new Se("WIDE", Map.of("https", "https://se.example/store", "root", "root://se.example//store")),
            new Se("NESTED", Map.of("https", "https://se.example:443/store/atlas/")),
            new Se("TWIN-B", Map.of("https", "https://twin.example/data")),
            new Se("TWIN-A", Map.of("https", "https://twin.example/data/")),
            new Se("BROKEN", Map.of("https", "not a url")),
            new Se("NONE", null));

    static final List<String> URLS = List.of("https://se.example/store/x", "https://SE.example/store/atlas/x", "https://se.example/store/atlas",
            "root://se.example//store/atlas/x", "davs://se.example/store/x", "https://twin.example/data/f", "https://elsewhere.example/x");

    @Test
    void theIndexAnswersAsTheSingleMatchForEveryUrl() {
        EndpointMatcher.Index<Se> index = EndpointMatcher.index(SES, Se::baseUrls, Se::name);
        for (String raw : URLS) {
            StorageUrl url = StorageUrl.parse(raw);
            Optional<EndpointMatcher.Match<Se>> single = EndpointMatcher.match(url, SES, Se::baseUrls, Se::name);
            Optional<EndpointMatcher.Match<Se>> indexed = index.match(url);
            assertEquals(single.map(m -> m.se().name()), indexed.map(m -> m.se().name()), raw);
            assertEquals(single.map(m -> m.base().toString()), indexed.map(m -> m.base().toString()), raw);
        }
        assertEquals("NESTED", index.match(StorageUrl.parse("https://se.example/store/atlas/x")).orElseThrow().se().name(), "the longest base");
        assertEquals("TWIN-A", index.match(StorageUrl.parse("https://twin.example/data/f")).orElseThrow().se().name(), "a tie: the first name");
        assertTrue(index.match(StorageUrl.parse("davs://se.example/store/x")).isEmpty(), "no base for the scheme");
    }

    @Test
    void everyUrlBelowOneBaseGetsTheSameBaseInstance() {
        EndpointMatcher.Index<Se> index = EndpointMatcher.index(SES, Se::baseUrls, Se::name);
        assertSame(index.match(StorageUrl.parse("https://se.example/store/a")).orElseThrow().base(),
                index.match(StorageUrl.parse("https://se.example/store/b/c")).orElseThrow().base());
    }
}
