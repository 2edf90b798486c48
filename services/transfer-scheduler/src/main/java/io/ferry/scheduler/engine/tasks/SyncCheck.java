package io.ferry.scheduler.engine.tasks;

import io.ferry.movers.CopyRequest;
import io.ferry.movers.Mover;
import io.ferry.movers.MoverException;
import io.ferry.movers.SourceStat;
import io.ferry.scheduler.db.Db;
import io.ferry.scheduler.queue.ClaimedFile;
import io.ferry.scheduler.submission.SyncLevel;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code params.sync_level}: whether a sync job's file is already at the destination, so its prepare ends it
 * FINISHED instead of copying it. A match is claimed only when it was checked: a destination that cannot be stat'ed,
 * a size or time that either side does not give, all mean "copy". Checksums are the submitted one, else the source
 * SE's, else the source read and summed, against the destination SE's, else the destination read and summed; either
 * side is read only once the sizes match.
 */
@ApplicationScoped
public class SyncCheck {

    private static final Logger LOG = Logger.getLogger(SyncCheck.class);

    /** Jobs' levels, remembered (params never change after submission) so that only a job's first file asks. */
    private static final int REMEMBERED_JOBS = 10_000;

    private final Pool pool;
    private final Map<UUID, Optional<SyncLevel>> levels = new ConcurrentHashMap<>();

    @Inject
    SyncCheck(Pool pool) {
        this.pool = pool;
    }

    /** Why the file needs no copy (its reason once FINISHED), or null: the job does not sync, or the file must be copied. */
    String alreadyThere(ClaimedFile f, Mover mover, CopyRequest req, SourceStat source) {
        SyncLevel level = levelOf(f.jobId());
        if (level == null) {
            return null;
        }
        SourceStat dest;
        try {
            dest = mover.destinationStat(req);
        } catch (MoverException | RuntimeException absent) {
            return null;  // not there (or not readable): the copy's own checks say which
        }
        String match = switch (level) {
            case EXISTS -> "";
            case SIZE -> sameSize(source, dest) ? ": " + dest.size() + " bytes match" : null;
            case MTIME -> notOlder(f, source, dest);
            case CHECKSUM -> sameChecksum(f, mover, req, source, dest);
        };
        return match == null ? null : "already at the destination (sync_level " + level.wire() + match + ")";
    }

    private static boolean sameSize(SourceStat source, SourceStat dest) {
        return source.size() >= 0 && source.size() == dest.size();
    }

    private static String notOlder(ClaimedFile f, SourceStat source, SourceStat dest) {
        if (!sameSize(source, dest)) {
            return null;
        }
        if (source.mtime() == null || dest.mtime() == null) {
            LOG.infof("file %d: sync_level mtime, but the %s modification time is unknown: copied", f.fileId(),
                    source.mtime() == null ? "source's" : "destination's");
            return null;
        }
        return dest.mtime().isBefore(source.mtime()) ? null : ": " + dest.size() + " bytes, not older than the source";
    }

    private static String sameChecksum(ClaimedFile f, Mover mover, CopyRequest req, SourceStat source, SourceStat dest) {
        if (source.size() >= 0 && dest.size() >= 0 && source.size() != dest.size()) {
            return null;
        }
        String expected = f.expectedChecksum() != null ? f.expectedChecksum() : source.checksum();
        if (expected == null) {
            // neither the job nor the source SE tells it: both sides are read, as rsync --checksum does, which still
            // writes nothing and moves each byte once instead of twice
            try {
                expected = mover.sourceChecksum(req);
            } catch (MoverException | RuntimeException unreadable) {
                LOG.infof("file %d: sync_level checksum, but the source's checksum could not be had (%s): copied", f.fileId(),
                        unreadable.getMessage());
                return null;
            }
            if (expected == null) {
                LOG.infof("file %d: sync_level checksum, but the source's %s cannot be had: copied", f.fileId(), req.algorithm().digestName());
                return null;
            }
        }
        String actual = dest.checksum();
        if (actual == null) {
            try {
                actual = mover.statDestination(req).checksum();
            } catch (MoverException | RuntimeException unreadable) {
                LOG.infof("file %d: sync_level checksum, but the destination's checksum could not be had (%s): copied", f.fileId(),
                        unreadable.getMessage());
                return null;
            }
        }
        return actual != null && actual.equalsIgnoreCase(expected)
                ? ": " + req.algorithm().digestName().toLowerCase(Locale.ROOT) + " " + actual.toLowerCase(Locale.ROOT) + " matches" : null;
    }

    private SyncLevel levelOf(UUID job) {
        Optional<SyncLevel> known = levels.get(job);
        if (known != null) {
            return known.orElse(null);
        }
        var rows = pool.preparedQuery("SELECT params FROM job WHERE job_id = $1").execute(Tuple.of(job)).await().atMost(Db.WAIT);
        SyncLevel level = rows.size() == 0 ? null : SyncLevel.ofStored(rows.iterator().next().getString(0));
        if (levels.size() >= REMEMBERED_JOBS) {
            levels.clear();
        }
        levels.put(job, Optional.ofNullable(level));
        return level;
    }
}
