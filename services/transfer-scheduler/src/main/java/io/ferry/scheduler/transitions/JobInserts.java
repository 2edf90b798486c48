package io.ferry.scheduler.transitions;

import io.ferry.scheduler.queue.FileState;
import io.ferry.scheduler.queue.Job;
import io.ferry.scheduler.queue.TransferFile;
import io.ferry.scheduler.submission.FileTapeMetadata;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;

/**
 * A new job and its files in two statements: the files go in as one INSERT of unnested arrays instead of entity
 * batches: entity batches cost a round trip and an id fetch per batch, time in which no transfer of the job can start.
 * File ids come from the column default, in file order.
 */
public final class JobInserts {

    /**
     * A new file's row, beside the job's columns. A plain record rather than a {@link TransferFile}: the entity's
     * change tracking costs on every field set, for rows that never go through Hibernate.
     */
    public record NewFile(int fileIndex, String activity, String sourceUrl, String destUrl, String sourceSe, String destSe,
                          String alternatives, Long filesize, String checksum, String fileMetadata, FileState state, Integer scitag,
                          FileTapeMetadata tape) {

        public NewFile {
            tape = tape == null ? FileTapeMetadata.NONE : tape;
        }

        /** A file without a SciTag flow label or tape metadata. */
        public NewFile(int fileIndex, String activity, String sourceUrl, String destUrl, String sourceSe, String destSe,
                       String alternatives, Long filesize, String checksum, String fileMetadata, FileState state) {
            this(fileIndex, activity, sourceUrl, destUrl, sourceSe, destSe, alternatives, filesize, checksum, fileMetadata, state, null, null);
        }
    }

    private static final String FILES = "INSERT INTO transfer_file (job_id, vo, state, priority, submitted_at, file_index, activity, source_url, "
            + "dest_url, source_se, dest_se, alternatives, filesize, checksum, file_metadata, scitag, multiple_sources, "
            + "staging_metadata, archive_metadata, claim_by) "
            + "SELECT $1, $2, unnest($15::text[]), $3, $4, unnest($5::int[]), unnest($6::text[]), unnest($7::text[]), unnest($8::text[]), "
            + "unnest($9::text[]), unnest($10::text[]), unnest($11::text[]), unnest($12::bigint[]), unnest($13::text[]), unnest($14::text[]), "
            + "unnest($16::int[]), unnest($17::boolean[]), unnest($18::text[]), unnest($19::text[]), $20";

    private static final String JOB = "INSERT INTO job (job_id, vo, user_dn, state, priority, verify_checksum, overwrite, retry, retry_delay, "
            + "max_time_in_queue, timeout, nostreams, job_metadata, params, source_se, dest_se, submitted_at, has_tokens, cred_id, job_type, "
            + "overwrite_hop, deadline) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22) "
            + "ON CONFLICT (job_id) DO NOTHING";

    private JobInserts() {
    }

    /**
     * When a job's files are due in the claims' order (earliest first, after priority): its deadline, else its
     * submission plus the undated horizon, so that files without a deadline still come up in time.
     */
    public static OffsetDateTime claimBy(Job job, Duration undatedHorizon) {
        return job.deadline != null ? job.deadline : job.submittedAt.plus(undatedHorizon);
    }

    /**
     * Stores the job, then its files, due by {@code claimBy} ({@link #claimBy}); false (nothing stored) when a job
     * with this id exists already.
     */
    public static Uni<Boolean> insert(SqlClient c, Job job, List<NewFile> files, OffsetDateTime claimBy) {
        Tuple j = Tuple.tuple().addUUID(job.jobId).addString(job.vo).addString(job.userDn).addString(job.state.name()).addInteger(job.priority)
                .addString(job.verifyChecksum).addBoolean(job.overwrite).addInteger(job.retry).addInteger(job.retryDelay)
                .addInteger(job.maxTimeInQueue).addInteger(job.timeout).addInteger(job.nostreams).addString(job.jobMetadata)
                .addString(job.params).addString(job.sourceSe).addString(job.destSe).addOffsetDateTime(job.submittedAt).addBoolean(job.hasTokens)
                .addString(job.credId).addString(job.jobType).addBoolean(job.overwriteHop).addOffsetDateTime(job.deadline);
        return c.preparedQuery(JOB).execute(j).flatMap(stored -> {
            if (stored.rowCount() == 0) {
                return Uni.createFrom().item(false);
            }
            return insertFiles(c, job, files, claimBy).replaceWith(true);
        });
    }

    /** Stores files of a job that is stored already (a directory job's, once its tree was listed). */
    public static Uni<Void> insertFiles(SqlClient c, Job job, List<NewFile> files, OffsetDateTime claimBy) {
        return c.preparedQuery(FILES).execute(files(job, files).addOffsetDateTime(claimBy)).replaceWithVoid();
    }

    private static Tuple files(Job job, List<NewFile> files) {
        int n = files.size();
        Integer[] index = new Integer[n], scitag = new Integer[n];
        Long[] size = new Long[n];
        Boolean[] multipleSources = new Boolean[n];
        String[] activity = new String[n], src = new String[n], dst = new String[n], srcSe = new String[n], dstSe = new String[n];
        String[] alternatives = new String[n], checksum = new String[n], metadata = new String[n], state = new String[n];
        String[] staging = new String[n], archive = new String[n];
        for (int i = 0; i < n; i++) {
            NewFile f = files.get(i);
            index[i] = f.fileIndex();
            activity[i] = f.activity();
            src[i] = f.sourceUrl();
            dst[i] = f.destUrl();
            srcSe[i] = f.sourceSe();
            dstSe[i] = f.destSe();
            alternatives[i] = f.alternatives();
            multipleSources[i] = f.alternatives() != null && !f.alternatives().equals("[]");
            size[i] = f.filesize();
            checksum[i] = f.checksum();
            metadata[i] = f.fileMetadata();
            state[i] = f.state().name();
            scitag[i] = f.scitag();
            staging[i] = f.tape().staging();
            archive[i] = f.tape().archive();
        }
        return Tuple.tuple().addUUID(job.jobId).addString(job.vo).addInteger(job.priority).addOffsetDateTime(job.submittedAt)
                .addArrayOfInteger(index).addArrayOfString(activity).addArrayOfString(src).addArrayOfString(dst).addArrayOfString(srcSe)
                .addArrayOfString(dstSe).addArrayOfString(alternatives).addArrayOfLong(size).addArrayOfString(checksum).addArrayOfString(metadata)
                .addArrayOfString(state).addArrayOfInteger(scitag).addArrayOfBoolean(multipleSources)
                .addArrayOfString(staging).addArrayOfString(archive);
    }
}
