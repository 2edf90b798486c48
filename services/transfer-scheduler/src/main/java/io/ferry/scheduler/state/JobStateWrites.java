package io.ferry.scheduler.state;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;

import java.util.EnumMap;
import java.util.Map;
import java.util.UUID;

/**
 * Writes a job's state, always as {@link JobStateRule} derives it from the job's files; used by {@link StateChanges}
 * only. The SQL here gathers facts for the rule and decides nothing itself.
 */
final class JobStateWrites {

    /**
     * What the rule needs while files are open, one index probe each whatever the job's size: any file open, active,
     * staging, done ($1 = job id).
     */
    static final String PRESENCE = "EXISTS (SELECT 1 FROM transfer_file WHERE job_id = $1 AND state IN (" + FileState.sql(FileState.OPEN) + ")), "
            + "EXISTS (SELECT 1 FROM transfer_file WHERE job_id = $1 AND state IN ('" + FileState.ACTIVE + "', '" + FileState.ARCHIVING + "')), "
            + "EXISTS (SELECT 1 FROM transfer_file WHERE job_id = $1 AND state = '" + FileState.STAGING + "'), "
            + "EXISTS (SELECT 1 FROM transfer_file WHERE job_id = $1 AND state IN (" + FileState.sql(FileState.DONE) + "))";

    private JobStateWrites() {
    }

    /** The rule's answer while files are open, from the {@link #PRESENCE} columns starting at {@code first}. */
    private static JobState whileOpen(Row r, int first) {
        return JobStateRule.whileOpen(r.getBoolean(first + 1), r.getBoolean(first + 2), r.getBoolean(first + 3));
    }

    /**
     * The job's state after one of its files changed, in that change's transaction. While files are open: by the
     * rule, written only when it differs. When none is open: the final state, if the job row can be had without
     * waiting; otherwise it stays for the settler ({@link StateChanges#settle}).
     */
    static Uni<String> afterFileChange(SqlClient c, UUID jobId) {
        return c.preparedQuery("SELECT j.state, " + PRESENCE + " FROM job j WHERE j.job_id = $1")
                .execute(Tuple.of(jobId)).chain(rows -> {
                    Row r = rows.iterator().next();
                    String current = r.getString(0);
                    if (JobState.valueOf(current).terminal()) {
                        return Uni.createFrom().item(current);
                    }
                    if (r.getBoolean(1)) {
                        String state = whileOpen(r, 1).name();
                        return state.equals(current) ? Uni.createFrom().item(state)
                                : c.preparedQuery("UPDATE job SET state = $2 WHERE job_id = $1 AND state = $3").execute(Tuple.of(jobId, state, current))
                                .replaceWith(state);
                    }
                    return c.preparedQuery("SELECT 1 FROM job WHERE job_id = $1 FOR UPDATE SKIP LOCKED").execute(Tuple.of(jobId))
                            .chain(locked -> locked.size() == 0 ? Uni.createFrom().item(current) : refresh(c, jobId));
                });
    }

    /**
     * Applies the rule to the job's files and writes the answer; answers the job's state. Call with the job row
     * locked. The count per state runs only once no file is open.
     */
    static Uni<String> refresh(SqlClient c, UUID jobId) {
        return c.preparedQuery("SELECT " + PRESENCE).execute(Tuple.of(jobId)).chain(rows -> {
            Row r = rows.iterator().next();
            if (r.getBoolean(0)) {
                return set(c, jobId, whileOpen(r, 0), null);
            }
            return c.preparedQuery("SELECT job_type = 'H' FROM job WHERE job_id = $1").execute(Tuple.of(jobId))
                    .chain(type -> counts(c, jobId).chain(counts -> set(c, jobId, JobStateRule.of(counts, type.iterator().next().getBoolean(0)), null)));
        });
    }

    /** How many of the job's files are in each state. */
    static Uni<Map<FileState, Long>> counts(SqlClient c, UUID jobId) {
        return c.preparedQuery("SELECT state, count(*) FROM transfer_file WHERE job_id = $1 GROUP BY state").execute(Tuple.of(jobId))
                .map(rows -> {
                    Map<FileState, Long> counts = new EnumMap<>(FileState.class);
                    for (Row n : rows) {
                        counts.put(FileState.valueOf(n.getString(0)), n.getLong(1));
                    }
                    return counts;
                });
    }

    /**
     * Writes the state if it changed (a final one with its finish time and, when given, the reason). A job that
     * ends forgets the bearer tokens its files brought and those from its submitter's token: nothing of it touches storage again.
     */
    static Uni<String> set(SqlClient c, UUID jobId, JobState state, String finalReason) {
        return c.preparedQuery("UPDATE job SET state = $2, finished_at = CASE WHEN $3 THEN coalesce(finished_at, now()) END, "
                        + "reason = CASE WHEN $3 AND $4::text IS NOT NULL THEN $4 ELSE reason END WHERE job_id = $1 AND state <> $2")
                .execute(Tuple.of(jobId, state.name(), state.terminal(), finalReason))
                .chain(updated -> state.terminal() && updated.rowCount() > 0
                        ? c.preparedQuery("DELETE FROM job_token WHERE job_id = $1").execute(Tuple.of(jobId))
                        .chain(x -> c.preparedQuery("DELETE FROM job_submitter_token WHERE job_id = $1").execute(Tuple.of(jobId))).replaceWithVoid()
                        : Uni.createFrom().voidItem())
                .replaceWith(state.name());
    }
}
