package io.ferry.scheduler.credentials;

import java.time.Duration;

/**
 * A file's storage token cannot be had now because its issuer did not answer (5xx, timeout, refused connection):
 * the file goes back to the queue for {@link #delay} without using up an attempt. The message names no token.
 */
public final class StorageTokenDeferred extends Exception {

    private final Duration delay;

    public StorageTokenDeferred(String message, Duration delay) {
        super(message, null, false, false);
        this.delay = delay;
    }

    public Duration delay() {
        return delay;
    }
}
