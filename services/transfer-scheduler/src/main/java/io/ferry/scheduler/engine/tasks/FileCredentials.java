package io.ferry.scheduler.engine.tasks;

import io.ferry.movers.BearerToken;
import io.ferry.movers.MoverException;
import io.ferry.movers.StorageCredential;
import io.ferry.movers.StorageCredentials;
import io.ferry.scheduler.credentials.FileTokenRows;
import io.ferry.scheduler.credentials.StorageTokenDeferred;
import io.ferry.scheduler.credentials.SubmitterTokens;
import io.ferry.scheduler.credentials.TokenSeal;
import io.ferry.scheduler.credentials.delegation.JobCredentials;
import io.ferry.scheduler.db.Db;
import io.ferry.scheduler.queue.ClaimedFile;
import io.ferry.scheduler.storage.SchedulingInputs;
import io.ferry.scheduler.storage.SiteDirectory;
import io.ferry.scheduler.storage.s3.S3Accounts;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.net.URI;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;

/**
 * What a claimed file presents to its source and destination SE: the bearer token it brought for the URL it is about
 * to touch (its current source, its destination), opened just before use; else the job's token for that SE and side
 * obtained from the submitter's token ({@link SubmitterTokens}; an issuer that does not answer defers the file); else, for an https:// side of a job
 * submitted with a certificate, the owner's delegated proxy ({@link JobCredentials}); else Ferry's own storage
 * identity, where the SE allows it ({@code allowServiceIdentity}); an s3:// side signs with the S3 account configured for its SE
 * and the job's VO ({@link S3Accounts}). A file whose SE refuses Ferry's identity and that brought no
 * credential for it, or whose token expired or does not open, fails for good with the reason, before any request.
 */
@ApplicationScoped
public class FileCredentials {

    private final Pool pool;
    private final TokenSeal seal;
    private final SiteDirectory sites;
    private final JobCredentials delegated;
    private final SubmitterTokens submitterTokens;
    private final S3Accounts s3;

    @Inject
    FileCredentials(Pool pool, TokenSeal seal, SiteDirectory sites, JobCredentials delegated, SubmitterTokens submitterTokens, S3Accounts s3) {
        this.s3 = s3;
        this.pool = pool;
        this.seal = seal;
        this.sites = sites;
        this.delegated = delegated;
        this.submitterTokens = submitterTokens;
    }

    /** The copy of {@code f} from {@code sourceUrl} to {@code destinationUrl}; {@code phase}: where the engine is (prepare or transfer), for the failure. */
    public StorageCredentials of(ClaimedFile f, URI sourceUrl, URI destinationUrl, String phase) throws MoverException, StorageTokenDeferred {
        StorageCredential source = null;
        StorageCredential destination = null;
        if (f.hasTokens()) {
            List<FileTokenRows.FileToken> tokens = pool.withConnection(c -> FileTokenRows.ofFile(c, f.fileId())).await().atMost(Db.WAIT);
            for (FileTokenRows.FileToken t : tokens) {
                if (t.side().equals("source") && t.url().equals(f.sourceUrl())) {
                    source = open(f, t, phase);
                } else if (t.side().equals("destination") && t.url().equals(f.destUrl())) {
                    destination = open(f, t, phase);
                }
            }
            // a side the file brought no token for: the job's, obtained from the submitter's token (where it had one)
            if (source == null) {
                source = submitterTokens.forSide(f, f.sourceSe(), "source", f.sourceUrl(), phase).orElse(null);
            }
            if (destination == null) {
                destination = submitterTokens.forSide(f, f.destSe(), "destination", f.destUrl(), phase).orElse(null);
            }
        }
        if (source == null || destination == null) {
            // asked only for a side without a token: a job whose delegation is gone still runs on the tokens it brought
            StorageCredentials proxy = delegated.forCopy(f, sourceUrl, destinationUrl, phase);
            source = source != null ? source : proxy.source();
            destination = destination != null ? destination : proxy.destination();
        }
        // S3 signs every request with an account's keys: the SE's (or its VO's) from configuration, whatever the file brought
        if (S3Accounts.speaksS3(sourceUrl)) {
            source = s3.forCopy(f.sourceSe(), f.vo()).orElse(null);
        }
        if (S3Accounts.speaksS3(destinationUrl)) {
            destination = s3.forCopy(f.destSe(), f.vo()).orElse(null);
        }
        requireOwnWhereServiceRefused(source, sites.se(f.sourceSe()), "source", phase);
        requireOwnWhereServiceRefused(destination, sites.se(f.destSe()), "destination", phase);
        return new StorageCredentials(source, destination);
    }

    private BearerToken open(ClaimedFile f, FileTokenRows.FileToken t, String phase) throws MoverException {
        if (t.expiresAt().isBefore(OffsetDateTime.now(ZoneOffset.UTC))) {
            throw new MoverException(MoverException.Code.PERMISSION_DENIED, phase, "the " + t.side() + " token this file brought expired at "
                    + t.expiresAt() + "; submit it again with a fresh one");
        }
        try {
            return new BearerToken(seal.open(t.sealed(), f.jobId(), t.tokenNo()));
        } catch (TokenSeal.SealBroken e) {
            throw new MoverException(MoverException.Code.PERMISSION_DENIED, phase, "the " + t.side() + " token this file brought cannot be "
                    + "opened: " + e.getMessage() + " (was the key changed since the job was submitted?)");
        }
    }

    /** An SE that refuses Ferry's own identity gets the file's credential or nothing: the file fails for good. */
    static void requireOwnWhereServiceRefused(StorageCredential given, SchedulingInputs.Se se, String side, String phase) throws MoverException {
        if (given == null && se != null && !se.allowServiceIdentity()) {
            throw new MoverException(MoverException.Code.PERMISSION_DENIED, phase, "storage endpoint " + se.name()
                    + " accepts only the user's own credential (allowServiceIdentity is false) and this file brought none for its "
                    + side + " (files[]." + side + "_tokens, or a delegated proxy for https)");
        }
    }
}
