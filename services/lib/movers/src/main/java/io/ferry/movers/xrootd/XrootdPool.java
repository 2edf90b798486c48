package io.ferry.movers.xrootd;

import io.ferry.movers.MoverException;
import io.ferry.movers.StorageTls;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Logged-in sessions kept between files, per server and credential: a file takes one (the most recently used),
 * uses it alone and gives it back. Sessions idle longer than {@code maxIdle} are closed rather than reused (the server
 * may have dropped them); a session whose stream went out of step is never given back.
 */
final class XrootdPool implements AutoCloseable {

    private final Duration timeout;
    private final StorageTls tls;
    private final int keptPerEndpoint;
    private final long maxIdleNanos;
    private final Map<XrootdEndpoint, Deque<XrootdConnection>> idle = new HashMap<>();
    private final AtomicLong opened = new AtomicLong();
    private final AtomicLong openedTls = new AtomicLong();
    private boolean closed;

    XrootdPool(Duration timeout, StorageTls tls, int keptPerEndpoint, Duration maxIdle) {
        this.timeout = timeout;
        this.tls = tls;
        this.keptPerEndpoint = keptPerEndpoint;
        this.maxIdleNanos = maxIdle.toNanos();
    }

    /** An idle session of {@code endpoint}, else a new one. */
    XrootdConnection take(XrootdEndpoint endpoint, String phase) throws IOException, XrootdError, MoverException {
        List<XrootdConnection> expired = new ArrayList<>();
        XrootdConnection found = null;
        synchronized (this) {
            Deque<XrootdConnection> d = idle.get(endpoint);
            while (d != null && !d.isEmpty() && found == null) {
                XrootdConnection c = d.pollFirst();
                if (System.nanoTime() - c.idleSinceNanos > maxIdleNanos || c.broken()) {
                    expired.add(c);
                } else {
                    found = c;
                }
            }
        }
        expired.forEach(XrootdConnection::close);
        if (found != null) {
            return found;
        }
        return fresh(endpoint, phase);
    }

    /** Always a new session (the pooled one turned out to be dead). */
    XrootdConnection fresh(XrootdEndpoint endpoint, String phase) throws IOException, XrootdError, MoverException {
        XrootdConnection c = XrootdConnection.open(endpoint, timeout, tls, phase);
        opened.incrementAndGet();
        if (c.isTls()) {
            openedTls.incrementAndGet();
        }
        return c;
    }

    /** Gives a session back after a file's requests all got their answers; a broken one is closed. */
    void give(XrootdConnection c) {
        if (c.broken()) {
            c.close();
            return;
        }
        XrootdConnection evicted = null;
        synchronized (this) {
            if (closed) {
                evicted = c;
            } else {
                Deque<XrootdConnection> d = idle.computeIfAbsent(c.endpoint, e -> new ArrayDeque<>());
                c.idleSinceNanos = System.nanoTime();
                d.addFirst(c);
                if (d.size() > keptPerEndpoint) {
                    evicted = d.pollLast();
                }
            }
        }
        if (evicted != null) {
            evicted.close();
        }
    }

    /** Sessions opened so far (reuse shows as fewer sessions than files). */
    long opened() {
        return opened.get();
    }

    /** Of those, the sessions that run over TLS (roots://, a token, or a server that asked for TLS). */
    long openedTls() {
        return openedTls.get();
    }

    /** Idle sessions now kept. */
    synchronized int idle() {
        return idle.values().stream().mapToInt(Deque::size).sum();
    }

    @Override
    public void close() {
        List<XrootdConnection> all = new ArrayList<>();
        synchronized (this) {
            closed = true;
            idle.values().forEach(all::addAll);
            idle.clear();
        }
        all.forEach(XrootdConnection::close);
    }
}
