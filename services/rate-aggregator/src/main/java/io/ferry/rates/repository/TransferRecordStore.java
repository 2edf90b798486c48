package io.ferry.rates.repository;

import io.ferry.rates.rest.TransferRecord;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.OffsetDateTime;
import java.util.List;

/**
 * Raw transfer records. Batches go in as one {@code INSERT … SELECT FROM unnest(…)} per call: one round trip and
 * one statement however many records, and {@code ON CONFLICT DO NOTHING} makes re-delivery harmless.
 */
@ApplicationScoped
public class TransferRecordStore {

    static final String COLUMNS = "id, job_id, file_id, attempt, vo, activity, source_se, dest_se, source_site, dest_site, "
            + "source_url, dest_url, filesize, bytes_transferred, streams, submitted_at, prepare_started_at, "
            + "prepare_ended_at, transfer_started_at, transfer_ended_at, checksum_started_at, checksum_ended_at, "
            + "throughput_bytes_per_s, outcome, error_code, error_phase, error_message, retryable, completed_at";

    /**
     * Stores the new records and, in the same statement, queues their facts for the rollups (see RollupWorker).
     * Only rows that were really inserted are queued, so re-delivery and out-of-order arrival both leave the
     * rollups equal to a recomputation from the raw records. Folding facts in batches off the request path is
     * what keeps ingest fast: a batch touches each rollup row once instead of once per record.
     */
    static final String INSERT = "WITH ins AS (INSERT INTO transfer_record (" + COLUMNS + ") SELECT * FROM unnest("
            + "$1::varchar[], $2::varchar[], $3::bigint[], $4::int[], $5::varchar[], $6::varchar[], $7::varchar[], "
            + "$8::varchar[], $9::varchar[], $10::varchar[], $11::text[], $12::text[], $13::bigint[], $14::bigint[], "
            + "$15::int[], $16::timestamptz[], $17::timestamptz[], $18::timestamptz[], $19::timestamptz[], "
            + "$20::timestamptz[], $21::timestamptz[], $22::timestamptz[], $23::float8[], $24::varchar[], "
            + "$25::varchar[], $26::varchar[], $27::text[], $28::bool[], $29::timestamptz[]) "
            + "ON CONFLICT (id) DO NOTHING RETURNING " + RollupSql.FACT_INPUTS + "), "
            + RollupSql.FACTS_FROM_INS + ", "
            + "queued AS (" + RollupSql.QUEUE_FACTS + ") "
            + "SELECT count(*) FROM ins";

    @Inject
    Pool pool;

    /** Inserts the records that are new; answers how many were (the others were known by id). */
    public Uni<Long> insertNew(SqlClient client, List<TransferRecord> records) {
        int n = records.size();
        String[] id = new String[n], jobId = new String[n], vo = new String[n], activity = new String[n];
        String[] srcSe = new String[n], dstSe = new String[n], srcSite = new String[n], dstSite = new String[n];
        String[] srcUrl = new String[n], dstUrl = new String[n], outcome = new String[n], errCode = new String[n];
        String[] errPhase = new String[n], errMsg = new String[n];
        Long[] fileId = new Long[n], filesize = new Long[n], bytes = new Long[n];
        Integer[] attempt = new Integer[n], streams = new Integer[n];
        Double[] throughput = new Double[n];
        Boolean[] retryable = new Boolean[n];
        OffsetDateTime[][] times = new OffsetDateTime[8][n];
        for (int i = 0; i < n; i++) {
            TransferRecord r = records.get(i);
            id[i] = r.id();
            jobId[i] = r.job_id();
            fileId[i] = r.file_id();
            attempt[i] = r.attempt() == null ? 1 : r.attempt();
            vo[i] = r.vo();
            activity[i] = r.activity() == null ? "default" : r.activity();
            srcSe[i] = r.source_se();
            dstSe[i] = r.dest_se();
            srcSite[i] = r.source_site();
            dstSite[i] = r.dest_site();
            srcUrl[i] = r.source_url();
            dstUrl[i] = r.dest_url();
            filesize[i] = r.filesize();
            bytes[i] = r.bytes_transferred();
            streams[i] = r.streams();
            times[0][i] = r.submitted_at();
            times[1][i] = r.prepare_started_at();
            times[2][i] = r.prepare_ended_at();
            times[3][i] = r.transfer_started_at();
            times[4][i] = r.transfer_ended_at();
            times[5][i] = r.checksum_started_at();
            times[6][i] = r.checksum_ended_at();
            times[7][i] = r.completedAt();
            throughput[i] = r.throughput_bytes_per_s();
            outcome[i] = r.outcome();
            errCode[i] = r.error_code();
            errPhase[i] = r.error_phase();
            errMsg[i] = r.error_message();
            retryable[i] = r.retryable();
        }
        Tuple args = Tuple.from(java.util.Arrays.asList(id, jobId, fileId, attempt, vo, activity, srcSe, dstSe, srcSite, dstSite,
                srcUrl, dstUrl, filesize, bytes, streams, times[0], times[1], times[2], times[3], times[4], times[5],
                times[6], throughput, outcome, errCode, errPhase, errMsg, retryable, times[7]));
        return client.preparedQuery(INSERT).execute(args)
                .map(rows -> rows.iterator().next().getLong(0));
    }

    public Pool pool() {
        return pool;
    }
}
