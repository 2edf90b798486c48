package io.ferry.scheduler.engine.tasks;

import io.ferry.movers.MoverException;
import io.ferry.movers.RateLimit;
import io.ferry.movers.TokenBucket;
import io.ferry.movers.TransferProgress;
import io.ferry.scheduler.db.Db;
import io.ferry.scheduler.queue.ClaimedFile;
import io.ferry.scheduler.storage.SchedulingInputs;
import io.ferry.scheduler.submission.MaxRate;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.function.LongSupplier;

/**
 * The rate caps a starting copy waits for: its job's ({@code params.max_rate}) and its link's ({@code link_config.max_rate}),
 * each a {@link TokenBucket} shared by all the copies of that job or link this replica runs, kept while one runs.
 * Across replicas a cap is split evenly between the replicas that run ACTIVE files of the job or link (counted as the
 * copy starts, so a bucket's rate follows as replicas join or leave): exact when they carry similar shares, below the
 * cap otherwise, never above it.
 * <p>
 * A third-party copy's bytes do not pass through Ferry, so no bucket can pace them: such a copy starts only while
 * the copies of its job and link already running (third-party, on this replica) move less than 95% of the share,
 * measured from their performance markers, and while none of them is younger than {@link #FIRST_MARKERS} (it has
 * not reported yet). A capped link's concurrency so climbs one copy per few seconds up to the cap and no further;
 * the rate of a copy once started is the storage's, so the guarantee is on the average over copies, and coarser.
 */
@ApplicationScoped
public class RateCaps {

    /** How long a third-party copy runs before its markers tell its rate (HTTP-TPC sends one about every 5 s). */
    static final long FIRST_MARKERS = 6_000_000_000L;
    /** What share of the cap running third-party copies may move for one more to start. */
    static final double THIRD_PARTY_ROOM = 0.95;

    private final Pool pool;
    private final LongSupplier clock;
    private final Map<UUID, Shared> jobs = new HashMap<>();
    private final Map<String, Shared> links = new HashMap<>();

    /** One cap's bucket and how many copies of this replica hold it. */
    private static final class Shared {
        final TokenBucket bucket;
        final List<Held> thirdParty = new ArrayList<>();
        int holders;

        Shared(double rate) {
            this.bucket = new TokenBucket(rate);
        }
    }

    /** What one copy holds: the limit its streamed bytes wait for; closed when the copy ends. */
    public final class Held implements AutoCloseable {
        private final UUID jobId;
        private final String linkKey;
        private final boolean job;
        private final boolean link;
        private final RateLimit limit;
        private final Long jobCap;
        private final Long linkCap;
        private TransferProgress progress;
        private long startedNanos;

        private Held(UUID jobId, String linkKey, boolean job, boolean link, RateLimit limit, Long jobCap, Long linkCap) {
            this.jobId = jobId;
            this.linkKey = linkKey;
            this.job = job;
            this.link = link;
            this.limit = limit;
            this.jobCap = jobCap;
            this.linkCap = linkCap;
        }

        public RateLimit limit() {
            return limit;
        }

        /** Whether the copy is capped at all (the job or the link has a max_rate). */
        public boolean capped() {
            return job || link;
        }

        /** The job's cap in bytes per second (all replicas), null without one. */
        public Long jobCap() {
            return jobCap;
        }

        /** The link's cap in bytes per second (all replicas), null without one. */
        public Long linkCap() {
            return linkCap;
        }

        /**
         * For a third-party copy of a capped job or link: waits until the copies already running leave room under
         * the caps (see the class), then counts this one among them. Ends early when the copy is stopped.
         */
        public void awaitThirdPartyRoom(TransferProgress copy) throws MoverException {
            if (!capped()) {
                return;
            }
            try {
                while (!admitted(copy)) {
                    Thread.sleep(500);
                    copy.rateLimited();  // waiting under the cap is no stall; fails once the copy was stopped
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new MoverException(MoverException.Code.CANCELED, "transfer", "interrupted waiting under the rate cap");
            } catch (IOException e) {
                MoverException stopped = copy.aborted("transfer");
                throw stopped != null ? stopped : new MoverException(MoverException.Code.CANCELED, "transfer", e.getMessage());
            }
        }

        /** Whether the copy may start now; if so it is counted among the running third-party copies from now on. */
        boolean admitted(TransferProgress copy) {
            synchronized (RateCaps.this) {
                long now = clock.getAsLong();
                Shared j = job ? jobs.get(jobId) : null;
                Shared l = link ? links.get(linkKey) : null;
                if (!room(j, now) || !room(l, now)) {
                    return false;
                }
                progress = copy;
                startedNanos = now;
                if (j != null) {
                    j.thirdParty.add(this);
                }
                if (l != null) {
                    l.thirdParty.add(this);
                }
                return true;
            }
        }

        @Override
        public void close() {
            synchronized (RateCaps.this) {
                if (job) {
                    release(jobs, jobId, this);
                }
                if (link) {
                    release(links, linkKey, this);
                }
            }
        }
    }

    @Inject
    RateCaps(Pool pool) {
        this(pool, System::nanoTime);
    }

    RateCaps(Pool pool, LongSupplier clock) {
        this.pool = pool;
        this.clock = clock;
    }

    /** The caps {@code f}'s copy waits for, this replica's share of each (one query; a second only for a capped copy). */
    public Held hold(ClaimedFile f) {
        Row caps = pool.preparedQuery("SELECT (SELECT CASE WHEN jsonb_typeof(params::jsonb) = 'object' THEN params::jsonb ->> 'max_rate' END "
                        + "FROM job WHERE job_id = $1), (SELECT max_rate FROM link_config WHERE source_se = $2 AND dest_se = $3)")
                .execute(Tuple.of(f.jobId(), f.sourceSe(), f.destSe())).await().atMost(Db.WAIT).iterator().next();
        // validated at submission; a value stored before caps existed and not a rate is no cap
        OptionalLong parsed = MaxRate.parse(caps.getString(0));
        Long jobCap = parsed.isPresent() ? parsed.getAsLong() : null;
        Long linkCap = caps.getLong(1);
        String linkKey = SchedulingInputs.key(f.sourceSe(), f.destSe());
        if (jobCap == null && linkCap == null) {
            return held(f.jobId(), linkKey, null, null, 0, 0);
        }
        Row sharing = pool.preparedQuery("SELECT count(DISTINCT lease_owner) FILTER (WHERE job_id = $1), "
                        + "count(DISTINCT lease_owner) FILTER (WHERE source_se = $2 AND dest_se = $3) FROM transfer_file "
                        + "WHERE state = 'ACTIVE' AND (job_id = $1 OR (source_se = $2 AND dest_se = $3))")
                .execute(Tuple.of(f.jobId(), f.sourceSe(), f.destSe())).await().atMost(Db.WAIT).iterator().next();
        return held(f.jobId(), linkKey, jobCap, linkCap, sharing.getLong(0), sharing.getLong(1));
    }

    /** A copy of {@code jobId} on the link {@code linkKey} under these caps (null: none), each shared by so many replicas. */
    synchronized Held held(UUID jobId, String linkKey, Long jobCap, Long linkCap, long jobReplicas, long linkReplicas) {
        RateLimit limit = RateLimit.NONE;
        if (jobCap != null) {
            limit = share(jobs, jobId, jobCap, jobReplicas);
        }
        if (linkCap != null) {
            limit = RateLimit.both(limit, share(links, linkKey, linkCap, linkReplicas));
        }
        return new Held(jobId, linkKey, jobCap != null, linkCap != null, limit, jobCap, linkCap);
    }

    private static <K> TokenBucket share(Map<K, Shared> buckets, K key, long cap, long replicas) {
        double rate = cap / (double) Math.max(1, replicas);
        Shared s = buckets.get(key);
        if (s == null) {
            s = new Shared(rate);
            buckets.put(key, s);
        } else if (s.bucket.rate() != rate) {
            s.bucket.setRate(rate);
        }
        s.holders++;
        return s.bucket;
    }

    /** Whether the third-party copies running under {@code s} (null: no cap) leave room for one more. */
    private static boolean room(Shared s, long now) {
        if (s == null) {
            return true;
        }
        double measured = 0;
        for (Held h : s.thirdParty) {
            long ran = now - h.startedNanos;
            if (ran < FIRST_MARKERS) {
                return false;
            }
            measured += h.progress.bytes() / (ran / 1e9);
        }
        return measured < THIRD_PARTY_ROOM * s.bucket.rate();
    }

    private static <K> void release(Map<K, Shared> buckets, K key, Held held) {
        Shared s = buckets.get(key);
        if (s != null) {
            s.thirdParty.remove(held);
        }
        if (s != null && --s.holders <= 0) {
            buckets.remove(key);
        }
    }
}
