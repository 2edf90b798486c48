package io.ferry.scheduler.links;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StreamAdviceTest {

    @Test
    void urlsOfOneHostAreTheSameHost() {
        assertTrue(StreamAdvice.sameHost("https://dcache.example.org:2880/a/f", "https://DCACHE.example.org/b/f"));
        assertTrue(StreamAdvice.sameHost("http://127.0.0.1:8080/se-a/f", "http://localhost:9090/se-b/f"));
        assertTrue(StreamAdvice.sameHost("http://[::1]:8080/se-a/f", "http://127.0.0.2/se-b/f"));
    }

    @Test
    void urlsOfTwoHostsOrWithoutOneAreNot() {
        assertFalse(StreamAdvice.sameHost("https://a.example.org/f", "https://b.example.org/f"));
        assertFalse(StreamAdvice.sameHost("http://127.0.0.1/f", "https://a.example.org/f"));
        assertFalse(StreamAdvice.sameHost("file:///data/a/f", "file:///data/b/f"));
        assertFalse(StreamAdvice.sameHost(null, "https://a.example.org/f"));
        assertFalse(StreamAdvice.sameHost("not a url", "not a url"));
    }
}
