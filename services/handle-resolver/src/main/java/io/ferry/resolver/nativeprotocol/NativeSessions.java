package io.ferry.resolver.nativeprotocol;

import java.security.SecureRandom;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntPredicate;

/**
 * The sessions clients set up, by id; an id is never one a pending challenge holds (both travel in the envelope's
 * session id). A session ends when its client terminates it or when it is idle longer than its timeout.
 */
final class NativeSessions {

    /** More sessions than any real client population keeps open; beyond it a setup is refused as too busy. */
    static final int MAX_OPEN = 10_000;

    private final SecureRandom random = new SecureRandom();
    private final Map<Integer, NativeSession> open = new ConcurrentHashMap<>();

    /** A fresh id no session holds and {@code taken} does not claim. */
    int freeId(IntPredicate taken) {
        while (true) {
            int id = random.nextInt(Integer.MAX_VALUE - 1) + 1;
            if (!open.containsKey(id) && !taken.test(id)) {
                return id;
            }
        }
    }

    boolean holds(int id) {
        return open.containsKey(id);
    }

    /** Keeps {@code session}; false when too many are open (after dropping the expired ones). */
    boolean add(NativeSession session) {
        if (open.size() >= MAX_OPEN) {
            long now = System.nanoTime();
            open.values().removeIf(s -> s.expired(now));
            if (open.size() >= MAX_OPEN) {
                return false;
            }
        }
        return open.putIfAbsent(session.id(), session) == null;
    }

    /** The live session {@code id}, touched; null when there is none (never set up, terminated, or expired). */
    NativeSession find(int id) {
        NativeSession s = open.get(id);
        if (s == null) {
            return null;
        }
        if (s.expired(System.nanoTime())) {
            open.remove(id, s);
            return null;
        }
        s.touch();
        return s;
    }

    void close(int id) {
        open.remove(id);
    }
}
