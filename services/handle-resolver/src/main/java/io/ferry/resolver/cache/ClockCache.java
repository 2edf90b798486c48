package io.ferry.resolver.cache;

import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A map bounded by the weight of its values, evicting with the CLOCK algorithm (second chance): a read only sets
 * its value's "used" flag, and a sweep evicts values not used since the hand last passed them.
 * <p>
 * Why not an LRU or W-TinyLFU cache: those reorder linked nodes on every read, so a read writes references into
 * old objects whose cards the young collector must then scan in every pause (docs/benchmarks.md); a flag is a
 * primitive store that the collector never has to look at.
 */
final class ClockCache<K, V extends ClockCache.Value> {

    /** A cached value: its weight in bytes and its use flag. */
    abstract static class Value {

        volatile boolean used;

        abstract int weight();
    }

    private final ConcurrentHashMap<K, V> map = new ConcurrentHashMap<>();
    private final long maxWeight;
    private final AtomicLong weight = new AtomicLong();
    private final ReentrantLock sweep = new ReentrantLock();
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder evictions = new LongAdder();
    private Iterator<Map.Entry<K, V>> hand;

    ClockCache(long maxWeight) {
        this.maxWeight = maxWeight;
    }

    V get(K key) {
        V v = map.get(key);
        if (v == null) {
            misses.increment();
            return null;
        }
        hits.increment();
        if (!v.used) {
            v.used = true;
        }
        return v;
    }

    void put(K key, V value) {
        V old = map.put(key, value);
        weight.addAndGet(value.weight() - (old == null ? 0 : old.weight()));
        if (weight.get() > maxWeight) {
            evict();
        }
    }

    /**
     * Runs {@code change} on {@code value} while it is still the one mapped to {@code key}, and counts {@code extra}
     * more bytes for it: {@code change} must make its weight() grow by as much. Atomic with removal and replacement of
     * the key, which subtract the grown weight; false when {@code value} is no longer cached (then nothing runs).
     */
    boolean grow(K key, V value, int extra, Runnable change) {
        boolean[] grown = {false};
        map.computeIfPresent(key, (k, current) -> {
            if (current == value) {
                change.run();
                weight.addAndGet(extra);
                grown[0] = true;
            }
            return current;
        });
        if (grown[0] && weight.get() > maxWeight) {
            evict();
        }
        return grown[0];
    }

    void remove(K key) {
        V old = map.remove(key);
        if (old != null) {
            weight.addAndGet(-old.weight());
        }
    }

    void clear() {
        for (K key : map.keySet()) {
            remove(key);
        }
    }

    /** Moves the hand until the weight is back under the bound; one sweeper at a time, the others go on. */
    private void evict() {
        if (!sweep.tryLock()) {
            return;
        }
        try {
            long budget = 2L * map.size() + 16;
            while (weight.get() > maxWeight && budget-- > 0) {
                if (hand == null || !hand.hasNext()) {
                    hand = map.entrySet().iterator();
                    if (!hand.hasNext()) {
                        return;
                    }
                }
                Map.Entry<K, V> e = hand.next();
                V v = e.getValue();
                if (v.used) {
                    v.used = false;
                } else if (map.remove(e.getKey(), v)) {
                    weight.addAndGet(-v.weight());
                    evictions.increment();
                }
            }
        } finally {
            sweep.unlock();
        }
    }

    long size() {
        return map.size();
    }

    long weight() {
        return weight.get();
    }

    long maxWeight() {
        return maxWeight;
    }

    long hits() {
        return hits.sum();
    }

    long misses() {
        return misses.sum();
    }

    long evictions() {
        return evictions.sum();
    }
}
