package io.ferry.scheduler.config;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** transfer-scheduler settings ({@code ferry.scheduler.*}; environment {@code FERRY_SCHEDULER_*}). */
@ConfigMapping(prefix = "ferry.scheduler")
public interface SchedulerConfig {

    /** Bearer token this service presents to the others (FERRY_SCHEDULER_SERVICE_TOKEN). */
    Optional<String> serviceToken();

    Advice advice();

    Engine engine();

    Optimizer optimizer();

    Outbox outbox();

    StorageTokens storageTokens();

    Probes probes();

    interface Engine {
        /** Whether this replica prepares and moves files (an API-only replica sets false). */
        @WithDefault("true")
        boolean enabled();

        /**
         * How this replica names itself (defaults to the host name); the files it claims carry the name, the process id
         * and an incarnation of each start. When set (the pod's name, say), a start declares its predecessor of the
         * same name dead at once rather than after the heartbeat timeout: give every replica a name of its own.
         */
        Optional<String> instanceId();

        /** How often this replica beats (scheduler_replica): the sign of life its claims depend on. */
        @WithDefault("1s")
        Duration heartbeat();

        /**
         * A replica silent for this long is dead: its prepare claims are released and its copies queued again at
         * once (a lapsed attempt, no retry used). Keep it several beats long, and above the longest pause a live
         * replica may take (a GC pause), or it loses its copies.
         */
        @WithDefault("5s")
        Duration heartbeatTimeout();

        /**
         * On shutdown (SIGTERM): copies expected to finish within this time finish; the others, and all still running
         * when it ends, go back to the queue at once with their attempt not counted. Keep the pod's
         * terminationGracePeriodSeconds above it.
         */
        @WithDefault("20s")
        Duration drainGrace();

        /** How often the queues are looked at when nothing wakes the loops earlier. */
        @WithDefault("250ms")
        Duration tick();

        /**
         * How long a claim holds without renewal: the backstop for a replica that beats but whose lease keeper is stuck
         * (a replica that dies loses its files at the heartbeat timeout).
         */
        @WithDefault("60s")
        Duration lease();

        /**
         * Within a queue and priority, files are claimed earliest deadline first; a file whose job has no deadline
         * counts as due this long after its submission, so dated jobs go first without starving the others.
         */
        @WithDefault("6h")
        Duration undatedHorizon();

        /** Files prepared ahead per link, as a multiple of the link's active target. */
        @WithDefault("2.5")
        double prepareRatio();

        /** A prepared file not started within this time is prepared again (its source may have gone, its pin lapsed). */
        @WithDefault("180s")
        Duration pinLifetime();

        /** Parallel prepare operations (stat, destination checks, stage requests) per replica. */
        @WithDefault("16")
        int prepareThreads();

        /** Parallel transfers per replica, over all links. */
        @WithDefault("100")
        int transferThreads();

        /** A transfer that moved no byte for this long is stopped as STALLED (and retried if the job allows). */
        @WithDefault("60s")
        Duration stallTimeout();

        /** Per-request timeout of the movers (a single HTTP exchange or chunk). */
        @WithDefault("5m")
        Duration ioTimeout();

        /**
         * Direct (off-heap) memory the HTTP copies of this replica may hold for their data, all together; one copy
         * takes at most a quarter. It counts against the pod's memory limit besides the heap: keep the JVM's
         * -XX:MaxDirectMemorySize above it (the server's own buffers need room too).
         */
        @WithDefault("128M")
        MemorySize copyMemory();

        /** S3 uploads: objects larger than one part go as a multipart upload of parts this size (at least 5M, S3's minimum). */
        @WithDefault("8M")
        MemorySize s3PartSize();

        /** Parts of one S3 upload sent at once, each on its own connection. */
        @WithDefault("4")
        int s3PartsInFlight();

        /**
         * Heap all S3 uploads of this replica may hold for parts in flight besides the one each is filling (a part's
         * MD5 must be known before it is sent); an upload that finds none free sends its parts one at a time.
         */
        @WithDefault("64M")
        MemorySize s3PartMemory();

        /** Links without a configuration: their active bounds. */
        @WithDefault("2")
        int defaultMinActive();

        @WithDefault("60")
        int defaultMaxActive();

        /** Directories file:// URLs may live in (besides being under a registered SE). */
        Optional<List<String>> fileRoots();

        /** How https:// storage is reached: CAs trusted besides the JDK's, and the certificate presented. */
        Tls tls();

        /** How often a staging request is polled. */
        @WithDefault("5s")
        Duration stagePoll();

        /**
         * Files of one tape SE per stage request (FTS3's bulk size): also how many files a link from a tape SE keeps
         * staging or prepared ahead, whatever its active target, so that a tape system gets its recalls in batches.
         */
        @WithDefault("200")
        int stageBatch();
    }

    interface Tls {
        /**
         * A PEM file, or a directory of them, of CAs trusted besides the JDK's: on grid hosts
         * {@code /etc/grid-security/certificates} (files there that hold no certificate are skipped).
         */
        Optional<String> caCertificates();

        /** PEM certificate (chain) presented to SEs that ask for a client certificate: a host certificate or a proxy. */
        Optional<String> certificate();

        /** Its unencrypted PEM private key (PKCS#8 or PKCS#1 RSA); when unset, read from the certificate file. */
        Optional<String> key();
    }

    interface Optimizer {
        /** How often each busy link's active target is reconsidered. */
        @WithDefault("30s")
        Duration interval();

        /** Weight of the newest throughput sample in the moving average. */
        @WithDefault("0.5")
        double emaAlpha();

        /** Below this success rate the link is backed off. */
        @WithDefault("0.9")
        double minSuccessRate();

        /** A change of the active count must improve throughput by this fraction to be kept. */
        @WithDefault("0.05")
        double minGain();

        /** Rounds a settled link holds before probing one step up again. */
        @WithDefault("10")
        int holdRounds();
    }

    interface Outbox {
        /** How often undelivered transfer records are sent. */
        @WithDefault("1s")
        Duration interval();

        @WithDefault("500")
        int batch();

        /** Longest wait between two delivery attempts of a record while rate-aggregator is away. */
        @WithDefault("60s")
        Duration maxBackoff();
    }

    interface Advice {
        /** How long to wait for tcp-profiles before using one stream. */
        @WithDefault("2s")
        Duration timeout();

        /** How long an answer from tcp-profiles is reused for the same link. */
        @WithDefault("5m")
        Duration cacheFor();
    }

    interface StorageTokens {
        /**
         * The AES-256 key (base64 of 32 random bytes) that seals the bearer tokens files bring toward storage
         * (FERRY_SCHEDULER_STORAGE_TOKENS_KEY); the same on every replica. Required outside dev and test: without
         * it the scheduler does not start. Generate one with {@code openssl rand -base64 32}.
         */
        Optional<String> key();

        /** A token that expires within this time is exchanged for a fresh one, where its issuer is in {@link #exchange}. */
        @WithDefault("20m")
        Duration refreshBefore();

        /** How often tokens near their expiry are looked for; well below {@link #refreshBefore}. */
        @WithDefault("1m")
        Duration refreshInterval();

        /**
         * How long a job's files wait before its submitter's token issuer is asked again after it failed to answer
         * (5xx, timeout, refused connection); doubled after each further failure up to {@link #issuerBackoffMax}.
         */
        @WithDefault("10s")
        Duration issuerBackoff();

        @WithDefault("10m")
        Duration issuerBackoffMax();

        /** Issuers that exchange their tokens for the scheduler (RFC 8693), by a name of the operator's. */
        Map<String, Exchange> exchange();

        interface Exchange {
            /** The issuer's {@code iss}. */
            String issuer();

            /** Its token endpoint. */
            URI tokenEndpoint();

            /** The scheduler's client at that issuer (HTTP Basic). */
            String clientId();

            String clientSecret();
        }
    }

    /** Link probes ({@code /probes}): periodic test transfers the scheduler runs itself. */
    interface Probes {
        /** How often the probe loop looks for due probes and ended runs when nothing wakes it earlier. */
        @WithDefault("10s")
        Duration poll();

        /** The shortest interval a probe may be given. */
        @WithDefault("5m")
        Duration minInterval();

        /** The largest file a probe may move. */
        @WithDefault("10G")
        MemorySize maxFileSize();

        /** The activity probe jobs run under, in the probe's VO (its fair-share weight: {@link #activityWeight()}). */
        @WithDefault("ferry-probe")
        String activity();

        /**
         * The weight the probe activity gets in a VO that has none for it when a probe of that VO is stored (an
         * operator's own weight in {@code /shares/{vo}/activities} is kept): production activities weigh 1 unless set.
         */
        @WithDefault("0.01")
        double activityWeight();

        /** The directory, below each SE's base URL, probe files are created in ({@code <dir>/<probe>/<run>}). */
        @WithDefault("/ferry-probes")
        String directory();
    }
}
