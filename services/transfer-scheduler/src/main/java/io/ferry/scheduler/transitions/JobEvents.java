package io.ferry.scheduler.transitions;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ferry.pglisten.PgChannelListener;
import io.ferry.scheduler.config.EventStreamConfig;
import io.ferry.scheduler.queue.FileState;
import io.ferry.scheduler.queue.JobState;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.operators.multi.processors.BroadcastProcessor;
import io.smallrye.mutiny.subscription.BackPressureStrategy;
import io.smallrye.mutiny.subscription.Cancellable;
import io.smallrye.mutiny.subscription.MultiEmitter;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.Config;
import org.jboss.logging.Logger;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Per-file state changes, published with PostgreSQL NOTIFY inside the transaction that makes them (so listeners
 * hear only committed changes, whichever scheduler replica made them) and fanned out to the engine and to the
 * event streams of the job.
 */
@ApplicationScoped
@RegisterForReflection(targets = JobEvents.Change.class) // NOTIFY payloads: Jackson reads and writes them by reflection
public class JobEvents {

    private static final Logger LOG = Logger.getLogger(JobEvents.class);
    static final String CHANNEL = "ferry_job_events";
    /** NOTIFY payloads are limited to 8000 bytes: file ids go in chunks. */
    static final int IDS_PER_NOTIFY = 400;

    /** What subscribers receive for one file. */
    public record FileEvent(String job_id, long file_id, FileState file_state, JobState job_state, String reason, String at) {
    }

    /**
     * One NOTIFY: the files of a job that moved to the same state, in the transaction {@code xid}
     * ({@code pg_current_xact_id()}; absent from a replica that does not send it).
     */
    record Change(String job_id, List<Long> file_ids, FileState file_state, JobState job_state, String reason, String at, String xid) {
    }

    /** What an event stream starts with: each file's state, read after the transactions {@code committed} saw. */
    public record Snapshot(List<FileEvent> files, CommittedBefore committed) {
    }

    /** The SQL expression of the snapshot {@link Snapshot#committed} is parsed from. */
    public static final String CURRENT_SNAPSHOT = "SELECT pg_current_snapshot()::text";

    /** An event as a listener hears it, with its transaction (null when unknown). */
    private record Heard(FileEvent event, Long xid) {
    }

    private final ObjectMapper json;
    private final Vertx vertx;
    private final Config config;
    private final EventStreamConfig streams;

    @Inject
    JobEvents(ObjectMapper json, Vertx vertx, Config config, EventStreamConfig streams) {
        this.json = json;
        this.vertx = vertx;
        this.config = config;
        this.streams = streams;
    }

    /** Every event, for whoever follows all jobs. */
    private final BroadcastProcessor<FileEvent> events = BroadcastProcessor.create();
    private final AtomicInteger allSubscribers = new AtomicInteger();
    /** Cancellations only, for the engine (it stops the copies of canceled files). */
    private final BroadcastProcessor<FileEvent> cancellations = BroadcastProcessor.create();
    /** Event streams' listeners by job id: an event reaches only those of its job. */
    private final Map<String, Set<Listener>> listeners = new ConcurrentHashMap<>();
    private final AtomicInteger listenerCount = new AtomicInteger();
    private PgChannelListener channel;

    void listen(@Observes StartupEvent start) {
        channel = new PgChannelListener(vertx, PgChannelListener.database(config), CHANNEL, this::deliver);
        channel.start();
    }

    void stop(@Observes ShutdownEvent stop) {
        if (channel != null) {
            channel.close();
        }
    }

    // The payload is bound as text and cast: a parameter the server types jsonb would take the string as one JSON
    // string, and || would then make an array.

    /** Queues the change for NOTIFY in the current Hibernate Reactive transaction. */
    public Uni<Void> publish(UUID jobId, List<Long> fileIds, FileState fileState, JobState jobState, String reason) {
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (String payload : payloads(jobId, fileIds, fileState, jobState, reason)) {
            chain = chain.flatMap(v -> Panache.getSession().flatMap(s -> s.createNativeQuery(
                            "SELECT pg_notify(:channel, CAST(CAST(CAST(:payload AS text) AS jsonb) || jsonb_build_object('xid', CAST(pg_current_xact_id() AS text)) AS text))")
                    .setParameter("channel", CHANNEL).setParameter("payload", payload).getSingleResult())).replaceWithVoid();
        }
        return chain;
    }

    /** Queues the change for NOTIFY in the transaction of {@code c} (the engine's SQL transactions). */
    public Uni<Void> publish(SqlClient c, UUID jobId, List<Long> fileIds, FileState fileState, JobState jobState,
                             String reason) {
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (String payload : payloads(jobId, fileIds, fileState, jobState, reason)) {
            chain = chain.chain(v -> c.preparedQuery("SELECT pg_notify($1, ($2::text::jsonb || jsonb_build_object('xid', pg_current_xact_id()::text))::text)")
                    .execute(Tuple.of(CHANNEL, payload)).replaceWithVoid());
        }
        return chain;
    }

    /**
     * A query, for a CTE of the statement that makes a change, that NOTIFYs the change of the files the CTE {@code changed}
     * returns (columns file_id, job_id and {@code jobState}, the job's state), one payload per job and chunk of file
     * ids as {@link #publish} sends them; the parameters {@code $fileState}, {@code $reason} and {@code $at} (from
     * {@link #now}) are text. Only a statement whose result reads this CTE sends it.
     */
    public static String notifyChanged(String changed, String jobState, int fileState, int reason, int at) {
        return notifyChanged(changed, jobState, "$" + fileState + "::text", "$" + reason + "::text", at);
    }

    /**
     * As {@link #notifyChanged(String, String, int, int, int)}, with the file state and the reason taken from columns
     * (or expressions) of {@code changed}: one payload per job, file state, reason and chunk.
     */
    public static String notifyChanged(String changed, String jobState, String fileState, String reason, int at) {
        return "SELECT pg_notify('" + CHANNEL + "', json_build_object('job_id', job_id::text, 'file_ids', array_agg(file_id ORDER BY file_id), "
                + "'file_state', file_state, 'job_state', job_state, 'reason', reason, 'at', $" + at + "::text, "
                + "'xid', pg_current_xact_id()::text)::text) "
                + "FROM (SELECT file_id, job_id, " + jobState + " AS job_state, " + fileState + " AS file_state, " + reason + " AS reason, "
                + "(row_number() OVER (PARTITION BY job_id, " + fileState + " ORDER BY file_id) - 1) / " + IDS_PER_NOTIFY
                + " AS chunk FROM " + changed + ") AS c GROUP BY job_id, job_state, file_state, reason, chunk";
    }

    /** The time an event carries, as {@link #notifyChanged} is given it. */
    public static String now() {
        return OffsetDateTime.now().toString();
    }

    /** One NOTIFY payload per chunk of file ids (payloads are limited to 8000 bytes). */
    private List<String> payloads(UUID jobId, List<Long> fileIds, FileState fileState, JobState jobState, String reason) {
        String at = now();
        List<String> out = new ArrayList<>();
        for (int i = 0; i < fileIds.size(); i += IDS_PER_NOTIFY) {
            List<Long> chunk = new ArrayList<>(fileIds.subList(i, Math.min(fileIds.size(), i + IDS_PER_NOTIFY)));
            out.add(payload(new Change(jobId.toString(), chunk, fileState, jobState, reason, at, null)));
        }
        return out;
    }

    /** Live events of every job. */
    public Multi<FileEvent> all() {
        return events.toHotStream().onSubscription().invoke(allSubscribers::incrementAndGet)
                .onTermination().invoke(allSubscribers::decrementAndGet);
    }

    /** Live cancellations of files of every job (the engine stops the copies it runs of them). */
    public Multi<FileEvent> canceled() {
        return cancellations.toHotStream();
    }

    /**
     * {@code snapshot} (each file's current state), then every change of the job as it commits. The listener is in
     * place before the snapshot is read, so no change falls between the two (changes meanwhile wait, in order). A
     * change the snapshot already holds is not sent again: its NOTIFY can arrive after the snapshot was read, and
     * sent then it would put an older state after a newer one. When the stream ends or its subscriber cancels, the
     * listener is removed and a pending snapshot read dropped.
     */
    public Multi<FileEvent> follow(UUID jobId, Uni<Snapshot> snapshot) {
        return Multi.createFrom().deferred(() -> {
            AtomicLong pending = new AtomicLong();
            return Multi.createFrom().<FileEvent>emitter(out -> {
                SnapshotThenLive gate = new SnapshotThenLive(out, pending, streams.maxPendingEvents());
                Listener listener = listen(jobId.toString(), gate::live);
                AtomicReference<Cancellable> reading = new AtomicReference<>();
                out.onTermination(() -> {
                    listener.close();
                    Cancellable r = reading.getAndSet(() -> { });
                    if (r != null) {
                        r.cancel();
                    }
                });
                Cancellable r = snapshot.subscribe().with(gate::snapshot, out::fail);
                if (!reading.compareAndSet(null, r)) {
                    r.cancel();
                }
            }, BackPressureStrategy.BUFFER).onItem().invoke(e -> pending.decrementAndGet());
        });
    }

    /** Listeners of single jobs, over all jobs (one per open event stream). */
    public int listeners() {
        return listenerCount.get();
    }

    private Listener listen(String jobId, Consumer<Heard> sink) {
        Listener l = new Listener(jobId, sink);
        listeners.compute(jobId, (id, set) -> {
            Set<Listener> s = set == null ? ConcurrentHashMap.newKeySet() : set;
            s.add(l);
            return s;
        });
        listenerCount.incrementAndGet();
        return l;
    }

    /** One subscriber's interest in one job; closing it removes it (and the job's entry with its last listener). */
    private final class Listener {
        final String jobId;
        final Consumer<Heard> sink;
        private final AtomicBoolean open = new AtomicBoolean(true);

        Listener(String jobId, Consumer<Heard> sink) {
            this.jobId = jobId;
            this.sink = sink;
        }

        void close() {
            if (open.compareAndSet(true, false)) {
                listeners.computeIfPresent(jobId, (id, set) -> {
                    set.remove(this);
                    return set.isEmpty() ? null : set;
                });
                listenerCount.decrementAndGet();
            }
        }
    }

    /**
     * Orders one stream's events: the snapshot first, then the changes heard while it was read, then live ones.
     * A subscriber that leaves more than {@code maxPending} events unread is ended: it reconnects for a fresh snapshot.
     */
    private static final class SnapshotThenLive {
        private final MultiEmitter<? super FileEvent> out;
        private final AtomicLong pending;
        private final int maxPending;
        /** Changes heard before the snapshot is out; null afterwards. */
        private List<Heard> held = new ArrayList<>();
        /** The transactions the snapshot holds; null until it is out. */
        private CommittedBefore committed;
        /** Set when the subscriber fell too far behind: nothing more is queued for it. */
        private boolean ended;

        SnapshotThenLive(MultiEmitter<? super FileEvent> out, AtomicLong pending, int maxPending) {
            this.out = out;
            this.pending = pending;
            this.maxPending = maxPending;
        }

        synchronized void live(Heard h) {
            if (ended) {
                return;
            }
            if (held == null) {
                emitUnlessHeld(h);
            } else if (held.size() < maxPending) {
                held.add(h);
            } else {
                end();
            }
        }

        synchronized void snapshot(Snapshot s) {
            committed = s.committed();
            s.files().forEach(this::emit);
            held.forEach(this::emitUnlessHeld);
            held = null;
        }

        private void emitUnlessHeld(Heard h) {
            if (h.xid() == null || !committed.includes(h.xid())) {
                emit(h.event());
            }
        }

        private void emit(FileEvent e) {
            if (pending.incrementAndGet() > maxPending) {
                end();
            } else if (!ended) {
                out.emit(e);
            }
        }

        private void end() {
            if (!ended) {
                ended = true;
                out.complete();
            }
        }
    }

    private void deliver(String payload) {
        // Most changes are heard by no one (no open event stream, not a cancellation): those are not parsed, which
        // while small files stream through is most of them. A payload naming CANCELED anywhere is parsed to be sure.
        boolean toAll = allSubscribers.get() > 0;
        if (!toAll && listenerCount.get() == 0 && !payload.contains(FileState.CANCELED.name())) {
            return;
        }
        try {
            Change c = json.readValue(payload, Change.class);
            Set<Listener> following = listeners.getOrDefault(c.job_id(), Set.of());
            Long xid = c.xid() == null ? null : Long.valueOf(c.xid());
            boolean canceled = c.file_state() == FileState.CANCELED;
            for (Long fileId : c.file_ids()) {
                FileEvent e = new FileEvent(c.job_id(), fileId, c.file_state(), c.job_state(), c.reason(), c.at());
                if (toAll) {
                    events.onNext(e);
                }
                if (canceled) {
                    cancellations.onNext(e);
                }
                Heard heard = new Heard(e, xid);
                following.forEach(l -> l.sink.accept(heard));
            }
        } catch (JsonProcessingException e) {
            LOG.warnf("ignoring a malformed job event: %s", e.getOriginalMessage());
        }
    }

    private String payload(Change c) {
        // NOTIFY payloads must stay under 8000 bytes: long failure messages are cut (the file keeps the full reason).
        if (c.reason() != null && c.reason().length() > 500) {
            c = new Change(c.job_id(), c.file_ids(), c.file_state(), c.job_state(), c.reason().substring(0, 500) + "…", c.at(), null);
        }
        try {
            return json.writeValueAsString(c);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
