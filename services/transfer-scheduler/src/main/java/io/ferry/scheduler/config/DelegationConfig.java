package io.ferry.scheduler.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.Optional;

/**
 * FTS3 proxy delegation ({@code ferry.scheduler.delegation.*}; environment {@code FERRY_SCHEDULER_DELEGATION_*}).
 */
@ConfigMapping(prefix = "ferry.scheduler.delegation")
public interface DelegationConfig {

    /**
     * The AES key (base64 of 16, 24 or 32 bytes) that encrypts delegated proxies and their private keys in the
     * database. Required when client certificates are accepted ({@code ferry.identity.x509.enabled}) outside dev and
     * test: the scheduler refuses to start without it. Keep it in a secret, the same on every replica; a changed key
     * makes the stored proxies unreadable (their owners delegate again).
     */
    Optional<String> key();

    /** A pending certificate request is answered again for this long, then a new key pair is made. */
    @WithDefault("PT1H")
    Duration requestLifetime();

    /** A certificate submission needs a delegated proxy with at least this much life left (FTS3: one hour). */
    @WithDefault("PT1H")
    Duration minimumRemaining();

    /** How long the engine keeps a job's decrypted proxy in memory between copies (never past its expiry). */
    @WithDefault("PT10S")
    Duration engineCacheFor();
}
