package io.ferry.resolver.nativeprotocol;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntPredicate;

/**
 * Challenges issued and not yet answered, by the session id their challenge carried (the client sends its answer
 * under that id, on a new connection or datagram). Each is answered once; unanswered ones expire.
 */
final class PendingChallenges {

    /** A challenged request, the nonce sent, and the digest of the request that the answer signs with it. */
    record Pending(NativeRequest request, byte[] nonce, byte[] requestDigest, long expiresAtNanos) {
    }

    /** More open challenges than any real client load leaves; beyond it a challenge is refused as too busy. */
    static final int MAX_OPEN = 10_000;

    private final SecureRandom random = new SecureRandom();
    private final Map<Integer, Pending> open = new ConcurrentHashMap<>();
    private final long timeoutNanos;

    PendingChallenges(Duration timeout) {
        this.timeoutNanos = timeout.toNanos();
    }

    /**
     * Remembers a challenge to {@code request}; returns its session id (one {@code taken} does not claim), or 0 when
     * too many are open.
     */
    int issue(NativeRequest request, byte[] nonce, byte[] requestDigest, IntPredicate taken) {
        long now = System.nanoTime();
        if (open.size() >= MAX_OPEN) {
            open.values().removeIf(p -> p.expiresAtNanos() - now < 0);
            if (open.size() >= MAX_OPEN) {
                return 0;
            }
        }
        Pending pending = new Pending(request, nonce, requestDigest, now + timeoutNanos);
        while (true) {
            int session = random.nextInt(Integer.MAX_VALUE - 1) + 1;
            if (!taken.test(session) && open.putIfAbsent(session, pending) == null) {
                return session;
            }
        }
    }

    boolean holds(int session) {
        return open.containsKey(session);
    }

    /** The challenge issued under {@code session}, removed; null when unknown or expired. */
    Pending take(int session) {
        Pending p = open.remove(session);
        return p == null || p.expiresAtNanos() - System.nanoTime() < 0 ? null : p;
    }

    byte[] nonce() {
        byte[] nonce = new byte[16];
        random.nextBytes(nonce);
        return nonce;
    }
}
