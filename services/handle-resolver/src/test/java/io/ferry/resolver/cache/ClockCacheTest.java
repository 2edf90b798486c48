package io.ferry.resolver.cache;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ClockCacheTest {

    static final class Sized extends ClockCache.Value {
        int weight;

        Sized(int weight) {
            this.weight = weight;
        }

        @Override
        int weight() {
            return weight;
        }
    }

    @Test
    void staysWithinItsWeightAndKeepsWhatIsRead() {
        ClockCache<String, Sized> cache = new ClockCache<>(1000);
        for (int i = 0; i < 10; i++) {
            cache.put("k" + i, new Sized(100));
        }
        assertEquals(1000, cache.weight());
        for (int i = 10; i < 500; i++) {
            assertNotNull(cache.get("k3"), "the entry read between inserts is kept (insert " + i + ")");
            cache.put("k" + i, new Sized(100));
            assertTrue(cache.weight() <= 1000, "weight " + cache.weight());
        }
        assertEquals(10, cache.size());
        assertEquals(490, cache.evictions());
        assertEquals(490, cache.hits());

        cache.put("k3", new Sized(40));
        assertEquals(940, cache.weight(), "a replaced value's weight is its new one");
        cache.remove("k3");
        assertNull(cache.get("k3"));
        assertEquals(1, cache.misses());
        cache.clear();
        assertEquals(0, cache.weight());
        assertEquals(0, cache.size());
    }

    @Test
    void aValueGrowsOnlyWhileItIsCachedAndIsSubtractedAsGrown() {
        ClockCache<String, Sized> cache = new ClockCache<>(1000);
        Sized a = new Sized(100);
        cache.put("a", a);
        assertTrue(cache.grow("a", a, 50, () -> a.weight += 50));
        assertEquals(150, cache.weight());
        cache.remove("a");
        assertEquals(0, cache.weight(), "removal subtracts the grown weight");

        assertFalse(cache.grow("a", a, 50, () -> a.weight += 50), "a removed value does not grow");
        assertEquals(150, a.weight);
        Sized b = new Sized(100);
        cache.put("a", b);
        assertFalse(cache.grow("a", a, 50, () -> a.weight += 50), "nor does one replaced by another");
        assertEquals(100, cache.weight());
    }
}
