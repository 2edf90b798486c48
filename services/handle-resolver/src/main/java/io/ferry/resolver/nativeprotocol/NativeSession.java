package io.ferry.resolver.nativeprotocol;

import java.util.BitSet;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One session a client set up (OC_SESSION_SETUP): the key both sides derived (MACs and AES), the protocol
 * version agreed, and, once a challenge in the session was answered, the identity every later request in it acts
 * as. Requests in the session carry a MAC under the key with a counter that must not repeat; answers carry this
 * server's own counter.
 */
final class NativeSession {

    /** How many request counters below the highest seen are remembered (CNRI's client keeps 200 of the server's). */
    private static final int COUNTER_WINDOW = 1024;

    /** A handle identity: {@code index:handle}. */
    record Identity(String handle, int index) {
    }

    private final int id;
    private final byte[] key;
    private final int major;
    private final int minor;
    private final long timeoutNanos;
    private final Identity claimed;
    private final AtomicInteger answerCounter = new AtomicInteger(1);
    private final BitSet seen = new BitSet(COUNTER_WINDOW);
    private int highestSeen;
    private volatile Identity authenticated;
    private volatile long lastUsedNanos = System.nanoTime();

    NativeSession(int id, byte[] key, int major, int minor, long timeoutNanos, Identity claimed) {
        this.id = id;
        this.key = key;
        this.major = major;
        this.minor = minor;
        this.timeoutNanos = timeoutNanos;
        this.claimed = claimed;
    }

    int id() {
        return id;
    }

    byte[] key() {
        return key;
    }

    int major() {
        return major;
    }

    int minor() {
        return minor;
    }

    Identity authenticated() {
        return authenticated;
    }

    /**
     * Binds the identity a challenge in this session proved. Only the identity the session was set up for (or any,
     * for a session set up without one) is bound, so that one session never acts as two.
     */
    void authenticate(Identity identity) {
        if (claimed == null || claimed.equals(identity)) {
            authenticated = identity;
        }
    }

    boolean expired(long now) {
        return now - lastUsedNanos > timeoutNanos;
    }

    void touch() {
        lastUsedNanos = System.nanoTime();
    }

    int nextAnswerCounter() {
        return answerCounter.getAndIncrement();
    }

    /**
     * Records a request's counter; false when it was seen before or is too old to tell (a replayed message). CNRI's
     * client counts from 1.
     */
    synchronized boolean accept(int counter) {
        if (counter <= 0 || counter <= highestSeen - COUNTER_WINDOW) {
            return false;
        }
        if (counter > highestSeen) {
            for (int c = Math.max(highestSeen + 1, counter - COUNTER_WINDOW + 1); c <= counter; c++) {
                seen.clear(Math.floorMod(c, COUNTER_WINDOW));
            }
            highestSeen = counter;
        }
        int slot = Math.floorMod(counter, COUNTER_WINDOW);
        if (seen.get(slot)) {
            return false;
        }
        seen.set(slot);
        return true;
    }
}
