package io.ferry.scheduler.transitions;

import io.ferry.movers.MoverException;
import io.ferry.scheduler.queue.FileState;
import io.ferry.scheduler.transitions.events.StateChanged;
import io.ferry.scheduler.transitions.events.StateEvents;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The counters of what happened to files, fed by the committed state changes ({@link StateChanged}, from what the
 * store already holds: no query of their own). Labels are SE names, VOs, outcomes and {@link MoverException.Code}s: bounded sets,
 * never job or file ids. An attempt is counted per VO (with its error code) and per link (for a link's success rate).
 */
@ApplicationScoped
public class TransferMetrics {

    static final String ATTEMPTS = "ferry_transfer_attempts";
    static final String BYTES = "ferry_transfer_bytes";
    static final String LINK_ATTEMPTS = "ferry_link_attempts";
    static final String LINK_BYTES = "ferry_link_bytes";
    static final String FILES_ENDED = "ferry_files_ended";
    static final String TAKEOVERS = "ferry_lease_takeovers";
    /** The error_code of an attempt that had none. */
    static final String NO_ERROR = "none";
    static final String REPLICA_DEAD = "replica_dead";
    static final String LEASE_LAPSED = "lease_lapsed";

    private final MeterRegistry registry;
    private final StateEvents changes;

    @Inject
    TransferMetrics(MeterRegistry registry, StateEvents changes) {
        this.registry = registry;
        this.changes = changes;
    }

    /** One counter per meter and label values, registered on first use and then only looked up. */
    private record Key(String meter, String a, String b, String c) {
    }

    private final ConcurrentHashMap<Key, Counter> counters = new ConcurrentHashMap<>();

    /** Follows the committed changes; takeovers are rare: their series exist from the start, so that an increase from nothing shows. */
    void onStart(@Observes StartupEvent e) {
        changes.subscribe(this::changed);
        counter(TAKEOVERS, REPLICA_DEAD, "", "");
        counter(TAKEOVERS, LEASE_LAPSED, "", "");
    }

    /**
     * What a committed change counts: the attempt it ended (per VO with its error code, and per link; a file taken
     * back from another replica as a takeover), and the files it ended (per VO and final state; an attempt that
     * failed as cancelled counts its file as CANCELED).
     */
    void changed(StateChanged c) {
        StateChanged.Attempt a = c.attempt();
        if (a != null) {
            attempt(c, a.outcome().name(), a.errorCode() == null ? NO_ERROR : a.errorCode(), a.bytes());
            if (a.takenBack() != null) {
                counter(TAKEOVERS, a.takenBack() == StateChanged.TakenBack.REPLICA_DEAD ? REPLICA_DEAD : LEASE_LAPSED, "", "").increment();
            }
        }
        if (c.filesEnded()) {
            ended(c.vo(), a != null ? a.outcome() : c.to(), c.fileIds().size());
        }
    }

    /** {@code files} of a VO reached {@code state} (FINISHED, FAILED or CANCELED). */
    private void ended(String vo, FileState state, long files) {
        if (files > 0) {
            counter(FILES_ENDED, state.name(), vo, "").increment(files);
        }
    }

    private void attempt(StateChanged c, String outcome, String errorCode, long bytes) {
        String vo = c.vo();
        String src = c.link().sourceSe();
        String dst = c.link().destSe();
        counter(ATTEMPTS, vo, outcome, errorCode).increment();
        counter(LINK_ATTEMPTS, src, dst, outcome).increment();
        if (bytes > 0) {
            counter(BYTES, vo, outcome, errorCode).increment(bytes);
            counter(LINK_BYTES, src, dst, outcome).increment(bytes);
        }
    }

    private Counter counter(String meter, String a, String b, String c) {
        return counters.computeIfAbsent(new Key(meter, a, b, c), this::register);
    }

    private Counter register(Key k) {
        Counter.Builder b = Counter.builder(k.meter());
        switch (k.meter()) {
            case ATTEMPTS -> b.description("finished attempts of files").tags("vo", k.a(), "outcome", k.b(), "error_code", k.c());
            case BYTES -> b.description("bytes moved by finished attempts").baseUnit("bytes").tags("vo", k.a(), "outcome", k.b(), "error_code", k.c());
            case LINK_ATTEMPTS -> b.description("finished attempts per link").tags("source_se", k.a(), "dest_se", k.b(), "outcome", k.c());
            case LINK_BYTES -> b.description("bytes moved per link").baseUnit("bytes").tags("source_se", k.a(), "dest_se", k.b(), "outcome", k.c());
            case FILES_ENDED -> b.description("files that reached a terminal state").tags("state", k.a(), "vo", k.b());
            case TAKEOVERS -> b.description("active files taken back from a replica whose lease lapsed or that stopped beating").tags("reason", k.a());
            default -> throw new IllegalArgumentException(k.meter());
        }
        return b.register(registry);
    }
}
