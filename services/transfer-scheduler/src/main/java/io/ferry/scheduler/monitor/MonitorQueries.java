package io.ferry.scheduler.monitor;

import io.ferry.scheduler.queue.FileState;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

/**
 * The web monitor's aggregates over the live file table: counts per link and VO, and failures grouped by link and
 * {@code error_code}. A null VO reads every VO's files (administrators); otherwise only that VO's.
 */
@ApplicationScoped
public class MonitorQueries {

    private static final String QUEUED = FileState.sql(EnumSet.of(FileState.SUBMITTED, FileState.STAGING, FileState.READY));
    private static final String RUNNING = FileState.sql(EnumSet.of(FileState.ACTIVE, FileState.ARCHIVING));

    /** Files of one VO on one link: open ones now, finished, failed and canceled ones since the window's start. */
    public record LinkVoCounts(String sourceSe, String destSe, String vo, long active, long queued, long finished, long failed,
                               long canceled, long bytesFinished, double throughputSum, long throughputSamples) {
    }

    /** Failures (final ones and retried attempts) of one link with one error code, the latest few as examples. */
    public record ErrorGroup(String sourceSe, String destSe, String errorCode, long count, OffsetDateTime lastSeen, List<Example> examples) {
    }

    public record Example(String jobId, long fileId, String vo, String reason, OffsetDateTime at) {
    }

    final Pool pool;

    @Inject
    public MonitorQueries(Pool pool) {
        this.pool = pool;
    }

    public Uni<List<LinkVoCounts>> counts(OffsetDateTime since, String vo) {
        String sql = "SELECT source_se, dest_se, vo, "
                + "count(*) FILTER (WHERE state IN (" + RUNNING + ")), "
                + "count(*) FILTER (WHERE state IN (" + QUEUED + ")), "
                + "count(*) FILTER (WHERE state = 'FINISHED' AND finish_time >= $1), "
                + "count(*) FILTER (WHERE state = 'FAILED' AND finish_time >= $1), "
                + "count(*) FILTER (WHERE state = 'CANCELED' AND finish_time >= $1), "
                + "coalesce(sum(bytes_transferred) FILTER (WHERE state = 'FINISHED' AND finish_time >= $1), 0), "
                + "coalesce(sum(throughput) FILTER (WHERE state = 'FINISHED' AND finish_time >= $1), 0), "
                + "count(throughput) FILTER (WHERE state = 'FINISHED' AND finish_time >= $1) "
                + "FROM transfer_file WHERE (state IN (" + RUNNING + ", " + QUEUED + ") OR finish_time >= $1) "
                + "AND ($2::text IS NULL OR vo = $2) GROUP BY source_se, dest_se, vo ORDER BY source_se, dest_se, vo";
        return pool.preparedQuery(sql).execute(Tuple.of(since, vo)).map(rows -> {
            List<LinkVoCounts> out = new ArrayList<>();
            for (Row r : rows) {
                out.add(new LinkVoCounts(r.getString(0), r.getString(1), r.getString(2), r.getLong(3), r.getLong(4), r.getLong(5),
                        r.getLong(6), r.getLong(7), r.getLong(8), r.getDouble(9), r.getLong(10)));
            }
            return out;
        });
    }

    /** A link's production in one time bin: bytes of files that finished in it, and their mean per-file throughput (bytes/s). */
    public record ProductionBin(String sourceSe, String destSe, OffsetDateTime binStart, long bytes, Double avgFileThroughput) {
    }

    /**
     * Finished files per link in bins of {@code binSeconds} since {@code since}, leaving out {@code excludedActivity}
     * (the probes' own copies): what production moved on each link, to draw beside the probe series.
     */
    public Uni<List<ProductionBin>> production(OffsetDateTime since, long binSeconds, String vo, String excludedActivity) {
        String sql = "SELECT source_se, dest_se, to_timestamp(floor(extract(epoch FROM finish_time) / $2) * $2) AS bin, "
                + "coalesce(sum(bytes_transferred), 0), avg(throughput) FROM transfer_file "
                + "WHERE state = 'FINISHED' AND finish_time >= $1 AND activity <> $3 AND ($4::text IS NULL OR vo = $4) "
                + "GROUP BY 1, 2, 3 ORDER BY 1, 2, 3";
        return pool.preparedQuery(sql).execute(Tuple.of(since, binSeconds, excludedActivity, vo)).map(rows -> {
            List<ProductionBin> out = new ArrayList<>();
            for (Row r : rows) {
                out.add(new ProductionBin(r.getString(0), r.getString(1), r.getOffsetDateTime(2), r.getLong(3), r.getDouble(4)));
            }
            return out;
        });
    }

    public Uni<List<ErrorGroup>> errors(OffsetDateTime since, String vo, int examples, int limit) {
        String sql = "WITH e AS ("
                + "SELECT f.source_se, f.dest_se, f.vo, coalesce(f.error_code, 'UNKNOWN') AS code, coalesce(f.reason, '') AS reason, "
                + "f.finish_time AS t, f.job_id, f.file_id FROM transfer_file f "
                + "WHERE f.state = 'FAILED' AND f.finish_time >= $1 AND ($2::text IS NULL OR f.vo = $2) "
                + "UNION ALL "
                + "SELECT f.source_se, f.dest_se, f.vo, r.error_code, r.reason, r.datetime, f.job_id, f.file_id "
                + "FROM file_retry r JOIN transfer_file f ON f.file_id = r.file_id "
                + "WHERE r.datetime >= $1 AND ($2::text IS NULL OR f.vo = $2)) "
                + "SELECT source_se, dest_se, code, count(*), max(t), "
                + "(array_agg(job_id::text ORDER BY t DESC, file_id DESC))[1:$3], (array_agg(file_id ORDER BY t DESC, file_id DESC))[1:$3], "
                + "(array_agg(vo ORDER BY t DESC, file_id DESC))[1:$3], (array_agg(reason ORDER BY t DESC, file_id DESC))[1:$3], "
                + "(array_agg(t ORDER BY t DESC, file_id DESC))[1:$3] "
                + "FROM e GROUP BY source_se, dest_se, code ORDER BY count(*) DESC, source_se, dest_se, code LIMIT $4";
        return pool.preparedQuery(sql).execute(Tuple.of(since, vo, examples, limit)).map(rows -> {
            List<ErrorGroup> out = new ArrayList<>();
            for (Row r : rows) {
                String[] jobs = r.getArrayOfStrings(5);
                Long[] files = r.getArrayOfLongs(6);
                String[] vos = r.getArrayOfStrings(7);
                String[] reasons = r.getArrayOfStrings(8);
                OffsetDateTime[] times = r.getArrayOfOffsetDateTimes(9);
                List<Example> listed = new ArrayList<>();
                for (int i = 0; i < jobs.length; i++) {
                    listed.add(new Example(jobs[i], files[i], vos[i], reasons[i], times[i]));
                }
                out.add(new ErrorGroup(r.getString(0), r.getString(1), r.getString(2), r.getLong(3), r.getOffsetDateTime(4),
                        List.copyOf(listed)));
            }
            return out;
        });
    }
}
