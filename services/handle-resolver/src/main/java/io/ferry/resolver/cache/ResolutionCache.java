package io.ferry.resolver.cache;

import io.ferry.resolver.resolution.ProxyDecisions;
import io.ferry.resolver.resolution.HandleAnswers;
import io.ferry.resolver.resolution.Answer;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ferry.resolver.config.ResolverConfig;
import io.ferry.resolver.model.HandleValue;
import io.ferry.resolver.model.Locations;
import io.ferry.resolver.model.ValueRules;
import io.ferry.resolver.repository.HandleStore;
import io.ferry.resolver.api.HandleResponse;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * Resolved handles kept in memory, so that a resolution (the hot path of the API and of the proxy) needs no
 * database round trip. An entry holds the handle's public view (only the values with public read, and the parsed
 * locations of its 10320/loc values), the serialized unfiltered answer of that view, the TTL figures for
 * Cache-Control and, when the proxy's answer is a plain redirect, its target. Values without public read are never
 * cached, so no answer from memory can show them; callers that may read them are answered from the database.
 * <p>
 * Freshness: PostgreSQL announces every committed change (migration V3) and {@link HandleChangeListener} drops the
 * entry on every replica; the replica that made a change also drops it as soon as its transaction is over. While
 * the listener is not connected, announcements may be lost: the cache is then emptied and bypassed. A load that read
 * the database before an invalidation of the same handle (or before a flush) never stores what it read: every
 * invalidation takes a number from {@code epoch}, and a load compares it with the number it started at.
 */
@ApplicationScoped
@RegisterForReflection(targets = {HandleResponse.class, HandleValue.class, HandleValue.Data.class, Locations.Location.class})
public class ResolutionCache {

    /** One cached resolution. {@code relativeTtl} and {@code absoluteExpiry} (epoch s) are the smallest of each kind. */
    public static final class Entry extends ClockCache.Value {

        private final String handle;
        private final HandleStore.Stored view;
        private final byte[] body;
        private final long relativeTtl;
        private final long absoluteExpiry;
        private final String redirect;
        private final int weight;
        /** The view's values as the native protocol encodes them, once a native resolution has needed them. */
        private volatile byte[] nativeValues;

        Entry(String key, String handle, HandleStore.Stored view, byte[] body, long relativeTtl, long absoluteExpiry, String redirect) {
            this.handle = handle;
            this.view = view;
            this.body = body;
            this.relativeTtl = relativeTtl;
            this.absoluteExpiry = absoluteExpiry;
            this.redirect = redirect;
            // The view's objects take about what their JSON does, and its parsed locations about as much again.
            this.weight = key.length() + (handle == key ? 0 : handle.length()) + 2 * body.length
                    + (view.locations().isEmpty() ? 0 : body.length) + (redirect == null ? 0 : redirect.length()) + ENTRY_OVERHEAD;
        }

        /** The handle as stored (its case). */
        public String handle() {
            return handle;
        }

        /** The handle's public view: the values with public read and their parsed locations. */
        public HandleStore.Stored view() {
            return view;
        }

        /** The unfiltered answer of the public view, serialized. */
        public byte[] body() {
            return body;
        }

        /** The proxy's redirect target when it is fixed (a URL value, no 10320/loc, no alias, no tombstone); else null. */
        public String redirect() {
            return redirect;
        }

        /** Seconds a client may cache the answer at {@code now} (epoch s): the smallest TTL of its values. */
        public long ttlSeconds(long now) {
            return ValueRules.ttlAt(relativeTtl, absoluteExpiry, now);
        }

        @Override
        int weight() {
            byte[] encoded = nativeValues;
            return weight + (encoded == null ? 0 : encoded.length + ARRAY_OVERHEAD);
        }
    }

    /** When a handle was last invalidated (epoch) and at what time (nanoTime), for the loads still running. */
    private record Invalidation(long epoch, long at) {
    }

    /** Bytes of a byte array's header. */
    static final int ARRAY_OVERHEAD = 16;
    /** Bytes an entry costs beyond its strings and body (entry, array and string headers, the map's node). */
    static final int ENTRY_OVERHEAD = 200;
    /** Invalidations are remembered this long; a load that started before the oldest one forgotten stores nothing. */
    static final long LOAD_WINDOW_NANOS = Duration.ofMinutes(1).toNanos();

    final HandleStore store;

    final ObjectMapper json;

    final ResolverConfig config;

    final MeterRegistry registry;

    @Inject
    public ResolutionCache(HandleStore store, ObjectMapper json, ResolverConfig config, MeterRegistry registry) {
        this.store = store;
        this.json = json;
        this.config = config;
        this.registry = registry;
    }

    private final AtomicLong epoch = new AtomicLong();
    private volatile long flushedAt;
    private volatile boolean live;
    /** Loads that started before this epoch may have missed an invalidation that is no longer remembered. */
    private volatile long forgottenBefore;
    private ClockCache<String, Entry> entries;
    private final ConcurrentHashMap<String, Invalidation> invalidatedAt = new ConcurrentHashMap<>();
    private final AtomicLong invalidationsSincePrune = new AtomicLong();

    @PostConstruct
    void init() {
        long maxBytes = config.cache().maxMegabytes() * 1024L * 1024L;
        if (maxBytes <= 0) {
            return;
        }
        entries = new ClockCache<>(maxBytes);
        // The names and tags of Micrometer's cache binders, so dashboards for other caches read this one too.
        String[] tags = {"cache", "handle-resolutions"};
        FunctionCounter.builder("cache.gets", entries, ClockCache::hits).tags(tags).tag("result", "hit").register(registry);
        FunctionCounter.builder("cache.gets", entries, ClockCache::misses).tags(tags).tag("result", "miss").register(registry);
        FunctionCounter.builder("cache.evictions", entries, ClockCache::evictions).tags(tags).register(registry);
        Gauge.builder("cache.size", entries, ClockCache::size).tags(tags).register(registry);
        Gauge.builder("cache.weight.bytes", entries, ClockCache::weight).tags(tags).register(registry);
    }

    /**
     * Handles are case-insensitive in ASCII, as in Handle.net: one entry per handle with A-Z lowered. Other letters
     * keep their case, so two keys are equal only if the database's {@code lower()} also finds the handles equal; a
     * request that differs from the stored handle elsewhere is simply answered from the database.
     */
    public static String key(String handle) {
        int i = 0;
        while (i < handle.length() && (handle.charAt(i) < 'A' || handle.charAt(i) > 'Z')) {
            i++;
        }
        if (i == handle.length()) {
            return handle;
        }
        char[] chars = handle.toCharArray();
        for (; i < chars.length; i++) {
            if (chars[i] >= 'A' && chars[i] <= 'Z') {
                chars[i] = (char) (chars[i] + ('a' - 'A'));
            }
        }
        return new String(chars);
    }

    public boolean enabled() {
        return entries != null;
    }

    /** The cached resolution of {@code handle}; null on a miss, or while announcements cannot be trusted. */
    public Entry get(String handle) {
        return live && entries != null ? entries.get(key(handle)) : null;
    }

    /**
     * The entry's values as the native protocol encodes them: made by {@code encoder} from the entry's view the first
     * time, then kept with the entry (weighed with it, and dropped with it when the handle changes).
     */
    public byte[] nativeValues(Entry e, Function<HandleStore.Stored, byte[]> encoder) {
        byte[] encoded = e.nativeValues;
        if (encoded != null) {
            return encoded;
        }
        byte[] made = encoder.apply(e.view());
        entries.grow(key(e.handle()), e, made.length + ARRAY_OVERHEAD, () -> e.nativeValues = made);
        return made;
    }

    /** The public view of the stored handle, from memory, or else from the database (then remembered). */
    public Uni<Optional<HandleStore.Stored>> find(String handle) {
        Entry cached = get(handle);
        if (cached != null) {
            return Uni.createFrom().item(Optional.of(cached.view()));
        }
        long mark = mark();
        return store.find(handle).invoke(found -> found.ifPresent(s -> remember(s, mark)))
                .map(found -> found.map(HandleStore.Stored::publicView));
    }

    /** The number a load starts at: what it read is stored only if nothing it covers was invalidated since. */
    public long mark() {
        return epoch.get();
    }

    /** Stores what a load that started at {@code mark} read, unless it may be stale; true when stored. */
    public boolean remember(HandleStore.Stored s, long mark) {
        if (!live || entries == null || flushedAt > mark || forgottenBefore > mark) {
            return false;
        }
        String key = key(s.handle());
        if (stale(key, mark)) {
            return false;
        }
        entries.put(key, entry(key, s));
        // An invalidation may have run between the check and the put: check again, and undo if so.
        if (stale(key, mark) || flushedAt > mark) {
            entries.remove(key);
            return false;
        }
        return true;
    }

    private boolean stale(String key, long mark) {
        Invalidation i = invalidatedAt.get(key);
        return i != null && i.epoch() > mark;
    }

    /** Drops one handle (an announcement, or this replica's own write). */
    public void invalidate(String handle) {
        if (entries == null) {
            return;
        }
        String key = key(handle);
        invalidatedAt.put(key, new Invalidation(epoch.incrementAndGet(), System.nanoTime()));
        entries.remove(key);
        if (invalidationsSincePrune.incrementAndGet() % 1024 == 0) {
            forgetOldInvalidations();
        }
    }

    /** Forgets invalidations older than the load window; loads that started before them will not store. */
    private void forgetOldInvalidations() {
        long horizon = System.nanoTime() - LOAD_WINDOW_NANOS;
        long forgotten = 0;
        for (Map.Entry<String, Invalidation> e : invalidatedAt.entrySet()) {
            Invalidation i = e.getValue();
            if (i.at() < horizon && invalidatedAt.remove(e.getKey(), i)) {
                forgotten = Math.max(forgotten, i.epoch());
            }
        }
        if (forgotten > forgottenBefore) {
            forgottenBefore = forgotten;
        }
    }

    /** Drops everything (a bulk change, or announcements that may have been missed). */
    public void invalidateAll() {
        flushedAt = epoch.incrementAndGet();
        if (entries != null) {
            entries.clear();
            // Everything older than the flush is covered by it.
            invalidatedAt.clear();
        }
    }

    /** Announcements are arriving (true) or may be lost (false): either way, what is cached may be stale. */
    void live(boolean connected) {
        live = connected;
        invalidateAll();
    }

    /** Runs a write and then drops the handle here, so this replica reads its own write before the announcement. */
    public <T> Uni<T> afterWrite(String handle, Uni<T> write) {
        return write.eventually(() -> invalidate(handle));
    }

    /** Connected, and below the fill at which a preload stops (it would only evict what it loaded before). */
    boolean acceptsMore() {
        return live && entries != null && entries.weight() < entries.maxWeight() * 0.95;
    }

    public long size() {
        return entries == null ? 0 : entries.size();
    }

    /** The entry of a stored handle: of its public view only. */
    Entry entry(String key, HandleStore.Stored stored) {
        HandleStore.Stored s = stored.publicView();
        ValueRules.TtlBounds ttl = ValueRules.ttlBounds(s.values());
        Answer answer = HandleAnswers.answer(s, List.of(), List.of(), OffsetDateTime.now(ZoneOffset.UTC));
        byte[] body;
        try {
            body = json.writeValueAsBytes(answer.body());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize the resolution of " + s.handle(), e);
        }
        ProxyDecisions.Decision d = s.tombstonedAt() != null ? null : ProxyDecisions.choose(s, null, null, 0);
        // Only a fixed target is precomputed (choose() returns only permitted targets): 10320/loc is chosen per request.
        boolean plain = d != null && d.kind() == ProxyDecisions.Kind.REDIRECT
                && s.values().stream().noneMatch(v -> HandleValue.LOC.equals(v.type()));
        return new Entry(key, key.equals(s.handle()) ? key : s.handle(), s, body, ttl.relative(), ttl.absoluteExpiry(),
                plain ? d.location() : null);
    }
}
