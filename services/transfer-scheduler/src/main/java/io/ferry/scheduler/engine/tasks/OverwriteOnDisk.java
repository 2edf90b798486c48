package io.ferry.scheduler.engine.tasks;

import io.ferry.movers.CopyRequest;
import io.ferry.movers.Mover;
import io.ferry.movers.MoverException;
import io.ferry.scheduler.db.Db;
import io.ferry.scheduler.queue.ClaimedFile;
import io.ferry.scheduler.storage.SchedulingInputs;
import io.ferry.scheduler.storage.SiteDirectory;
import io.ferry.scheduler.tape.TapeRows;
import io.ferry.scheduler.tape.TapeStager;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.util.List;

/**
 * FTS3's {@code overwrite_when_only_on_disk} (url-copy's {@code performOverwriteOnDiskWorkflow}): an archiving job
 * whose destination exists, without {@code overwrite}, replaces that file only while it is on disk and not yet on
 * tape, so a copy that never reached tape can be done again while one on tape is never touched. Only on an SE its
 * operators enabled for it (FTS3's {@code overwrite_disk_enabled}, set through {@code /config/se}). Locality is what
 * the SE's Tape REST API answers to {@code archiveinfo}; an SE without a {@code tape} base URL keeps files on disk only
 * (as for {@code dst_file_report}). Every refusal carries FTS3's reason, word for word: Rucio reads them.
 */
@ApplicationScoped
public class OverwriteOnDisk {

    static final String NOT_ENABLED = "Destination endpoint not configured with \"overwrite-disk-enabled\" (overwrite-when-only-on-disk requested)";
    static final String ON_TAPE = "Destination file exists and is on tape (overwrite-when-only-on-disk requested)";
    static final String UNCHECKED = "Could not check destination file locality (overwrite-when-only-on-disk requested)";
    static final String NOT_DELETED = "Failed to delete destination file (overwrite-when-only-on-disk requested)";

    private static final Logger LOG = Logger.getLogger(OverwriteOnDisk.class);

    private final Pool pool;
    private final SiteDirectory sites;
    private final TapeStager stager;

    @Inject
    OverwriteOnDisk(Pool pool, SiteDirectory sites, TapeStager stager) {
        this.pool = pool;
        this.sites = sites;
        this.stager = stager;
    }

    /**
     * After the prepare found the destination in place ({@code refusal}): returns once the file was removed because it
     * is on disk only (the caller prepares the destination again); throws {@code refusal} when the job did not ask,
     * else FTS3's refusal.
     */
    void replaceOrRefuse(ClaimedFile f, Mover mover, CopyRequest req, MoverException refusal) throws MoverException {
        if (refusal.code() != MoverException.Code.DEST_EXISTS || req.overwrite()
                || !TapeRows.of(pool, f.fileId(), Db.WAIT).params().overwritesOnDiskOnly()) {
            throw refusal;
        }
        if (!enabled(f.destSe())) {
            throw new MoverException(MoverException.Code.DEST_EXISTS, "prepare", NOT_ENABLED);
        }
        SchedulingInputs.Se dest = sites.se(f.destSe());
        String tape = dest == null ? null : dest.baseUrls().get("tape");
        if (tape != null) {
            TapeStager.Locality l;
            try {
                l = stager.archiveInfo(tape, List.of(req.destination()), req.credentials().destination()).get(req.destination().getPath());
            } catch (MoverException e) {
                LOG.warnf("archiveinfo for %s failed: %s", req.destination(), e.getMessage());
                throw new MoverException(e.code(), "prepare", UNCHECKED);
            }
            if (l == null || l.error() != null) {
                LOG.warnf("archiveinfo for %s: %s", req.destination(), l == null ? "not in the answer" : l.error());
                throw new MoverException(MoverException.Code.DEST_EXISTS, "prepare", UNCHECKED);
            }
            if (l.onTape()) {
                throw new MoverException(MoverException.Code.DEST_EXISTS, "prepare", ON_TAPE);
            }
            if (!l.onDisk()) {
                throw new MoverException(MoverException.Code.DEST_EXISTS, "prepare",
                        "Destination file location unknown: " + l.locality() + " (overwrite-when-only-on-disk requested)");
            }
        }
        try {
            mover.remove(req.destination(), req.destinationBase(), req.credentials().destination());
        } catch (MoverException e) {
            LOG.warnf("removing %s (on disk only) failed: %s", req.destination(), e.getMessage());
            throw new MoverException(e.code(), "prepare", NOT_DELETED);
        }
        LOG.infof("file %d: %s was on disk only and is replaced (overwrite_when_only_on_disk)", f.fileId(), req.destination());
    }

    /** FTS3's {@code overwrite_disk_enabled} of the SE (kept by {@code /config/se}): off unless set to a non-zero number. */
    private boolean enabled(String se) {
        var rows = pool.preparedQuery("SELECT COALESCE((se_info ->> 'overwrite_disk_enabled')::numeric <> 0, false) FROM fts3_se_config "
                + "WHERE se_name = $1").execute(Tuple.of(se)).await().atMost(Db.WAIT);
        return rows.size() > 0 && Boolean.TRUE.equals(rows.iterator().next().getBoolean(0));
    }
}
