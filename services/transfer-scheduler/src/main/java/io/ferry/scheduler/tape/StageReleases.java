package io.ferry.scheduler.tape;

import io.ferry.movers.MoverException;
import io.ferry.movers.StorageCredential;
import io.ferry.scheduler.queue.ClaimedFile;
import io.ferry.scheduler.storage.SchedulingInputs;
import io.ferry.scheduler.storage.SiteDirectory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.net.URI;
import java.util.List;

/**
 * Unpins a staged file once its copy attempt is over, copied or not (FTS3 releases the bring-online request after
 * the transfer): a retry stages again. A release that fails is only logged: the pin lapses by its diskLifetime.
 */
@ApplicationScoped
public class StageReleases {

    private static final Logger LOG = Logger.getLogger(StageReleases.class);

    final SiteDirectory sites;

    final TapeStager stager;

    @Inject
    public StageReleases(SiteDirectory sites, TapeStager stager) {
        this.sites = sites;
        this.stager = stager;
    }


    /**
     * {@code source}: the URL the copy read; {@code credential}: what it presented there, taken before the outcome was
     * written (a job that ended has forgotten its tokens).
     */
    public void afterCopy(ClaimedFile f, URI source, StorageCredential credential) {
        SchedulingInputs.Se se = sites.se(f.sourceSe());
        String tape = se == null ? null : se.baseUrls().get("tape");
        if (f.stageRequest() == null || tape == null) {
            return;
        }
        try {
            stager.release(tape, f.stageRequest(), List.of(source), credential);
        } catch (MoverException | RuntimeException e) {
            LOG.warnf("stage request %s of file %d not released: %s", f.stageRequest(), f.fileId(), e.getMessage());
        }
    }
}
