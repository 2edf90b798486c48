package io.ferry.scheduler.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.Optional;

/**
 * FTS3's monitoring messages to a STOMP broker ({@code ferry.scheduler.monitoring.stomp.*}; environment
 * {@code FERRY_SCHEDULER_MONITORING_STOMP_*}). Off by default.
 */
@ConfigMapping(prefix = "ferry.scheduler.monitoring.stomp")
public interface MonitoringStompConfig {

    /** Whether completion messages are kept and published (while off, none is kept). */
    @WithDefault("false")
    boolean enabled();

    @WithDefault("localhost")
    String host();

    @WithDefault("61613")
    int port();

    /** STOMP over TLS (the JVM's trust store verifies the broker). */
    @WithDefault("false")
    boolean tls();

    Optional<String> login();

    /** Never logged. */
    Optional<String> passcode();

    /** The broker's virtual host ({@code host} header of CONNECT); defaults to the host name. */
    Optional<String> virtualHost();

    /** Put before FTS3's destination names: {@code /topic/} gives {@code /topic/transfer.fts_monitoring_complete}. */
    @WithDefault("/topic/")
    String destinationPrefix();

    /** FTS3's name of the completion destination (its msg config's COMPLETE). */
    @WithDefault("transfer.fts_monitoring_complete")
    String completeDestination();

    /** FTS3's name of the state-change destination (its msg config's STATE): a message on each change of a file's state. */
    @WithDefault("transfer.fts_monitoring_state")
    String stateDestination();

    /** FTS3's name of the transfer-start destination (its msg config's START): a message when a file's copy starts. */
    @WithDefault("transfer.fts_monitoring_start")
    String startDestination();

    /** Whether state and start messages are sent besides the completion messages (FTS3 sends all three). */
    @WithDefault("true")
    boolean stateMessages();

    /**
     * Whether each body ends with EOT (0x04), as old FTS3 releases sent them and Rucio's receiver of that time
     * stripped; off by default because today's receiver parses the body as it is ({@code json.loads(frame.body)}).
     */
    @WithDefault("false")
    boolean eot();

    /**
     * This service as its FTS3 clients reach it (FTS3's Alias), sent as {@code endpnt}: Rucio matches it with the
     * FTS3 host it submitted to. Defaults to https://host name:HTTP port.
     */
    Optional<String> endpoint();

    /** How often waiting messages are looked for. */
    @WithDefault("1s")
    Duration interval();

    /** Messages sent before their receipts are awaited together. */
    @WithDefault("200")
    int batch();

    /** How long a receipt may take before the broker counts as away. */
    @WithDefault("30s")
    Duration receiptTimeout();

    /** Longest pause between tries while the broker is away (the pause doubles per failure from the interval). */
    @WithDefault("60s")
    Duration maxBackoff();
}
