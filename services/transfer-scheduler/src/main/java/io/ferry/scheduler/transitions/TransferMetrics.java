package io.ferry.scheduler.transitions;

import io.ferry.movers.MoverException;
import io.ferry.scheduler.queue.ClaimedFile;
import io.ferry.scheduler.queue.FileState;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The counters of what happened to files, fed by the state changes once they applied (from what the engine already
 * holds: no query of their own). Labels are SE names, VOs, outcomes and {@link MoverException.Code}s: bounded sets,
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

    @Inject
    MeterRegistry registry;

    /** One counter per meter and label values, registered on first use and then only looked up. */
    private record Key(String meter, String a, String b, String c) {
    }

    private final ConcurrentHashMap<Key, Counter> counters = new ConcurrentHashMap<>();

    /** Takeovers are rare: their series exist from the start, so that an increase from nothing shows. */
    void onStart(@Observes StartupEvent e) {
        counter(TAKEOVERS, REPLICA_DEAD, "", "");
        counter(TAKEOVERS, LEASE_LAPSED, "", "");
    }

    /** A copy that succeeded and was written; {@code archive}: the file goes on to ARCHIVING and has not ended yet. */
    public void copied(ClaimedFile f, long bytes, boolean archive) {
        attempt(f, "FINISHED", NO_ERROR, bytes);
        if (!archive) {
            ended(f.vo(), FileState.FINISHED, 1);
        }
    }

    /**
     * A failed attempt, counted when its change {@code applied} (answered as given, so a call can wrap the change).
     * {@code again}: the file went back to the queue. A lapsed lease or a silent replica means another replica took the
     * file back.
     */
    public boolean attemptFailed(boolean applied, ClaimedFile f, Guard guard, boolean again, MoverException e, long bytes) {
        if (!applied) {
            return false;
        }
        FileState end = e.code() == MoverException.Code.CANCELED ? FileState.CANCELED : FileState.FAILED;
        attempt(f, end.name(), e.code().name(), bytes);
        if (!again) {
            ended(f.vo(), end, 1);
        }
        if (guard == Guard.LEASE_LAPSED || guard == Guard.ABANDONED) {
            counter(TAKEOVERS, guard == Guard.ABANDONED ? REPLICA_DEAD : LEASE_LAPSED, "", "").increment();
        }
        return true;
    }

    /** A running copy stopped by its file's cancel (the file itself was counted by the cancel). */
    public void attemptCanceled(ClaimedFile f, long bytes) {
        attempt(f, FileState.CANCELED.name(), MoverException.Code.CANCELED.name(), bytes);
    }

    /** A file that left ARCHIVING, counted when the change {@code applied} (answered as given). */
    public boolean archiveEnded(boolean applied, ClaimedFile f, FileState end) {
        if (applied) {
            ended(f.vo(), end, 1);
        }
        return applied;
    }

    /** {@code files} of a VO reached {@code state} (FINISHED, FAILED or CANCELED). */
    public void ended(String vo, FileState state, long files) {
        if (files > 0) {
            counter(FILES_ENDED, state.name(), vo, "").increment(files);
        }
    }

    private void attempt(ClaimedFile f, String outcome, String errorCode, long bytes) {
        counter(ATTEMPTS, f.vo(), outcome, errorCode).increment();
        counter(LINK_ATTEMPTS, f.sourceSe(), f.destSe(), outcome).increment();
        if (bytes > 0) {
            counter(BYTES, f.vo(), outcome, errorCode).increment(bytes);
            counter(LINK_BYTES, f.sourceSe(), f.destSe(), outcome).increment(bytes);
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
