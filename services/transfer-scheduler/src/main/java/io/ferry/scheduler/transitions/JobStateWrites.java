package io.ferry.scheduler.transitions;

import io.ferry.scheduler.queue.FileState;
import io.ferry.scheduler.queue.JobState;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;

import java.util.EnumMap;
import java.util.Map;
import java.util.UUID;
import java.util.function.UnaryOperator;

/**
 * Writes a job's state, always as {@link JobStateRule} derives it from the job's files; used by {@link StateChanges}
 * only. The SQL here gathers facts for the rule and decides nothing itself.
 */
final class JobStateWrites {

    /** The file states the rule asks about while files are open, as SQL conditions on a state column. */
    private static final String OPEN = "IN (" + FileState.sql(FileState.OPEN) + ")";
    private static final String ACTIVE = "IN ('" + FileState.ACTIVE + "', '" + FileState.ARCHIVING + "')";
    private static final String STAGING = "= '" + FileState.STAGING + "'";
    private static final String DONE = "IN (" + FileState.sql(FileState.DONE) + ")";

    /**
     * What the rule needs while files are open, one index probe each whatever the job's size: any file open, active,
     * staging, done ($1 = job id).
     */
    static final String PRESENCE = "EXISTS (SELECT 1 FROM transfer_file WHERE job_id = $1 AND state " + OPEN + "), "
            + "EXISTS (SELECT 1 FROM transfer_file WHERE job_id = $1 AND state " + ACTIVE + "), "
            + "EXISTS (SELECT 1 FROM transfer_file WHERE job_id = $1 AND state " + STAGING + "), "
            + "EXISTS (SELECT 1 FROM transfer_file WHERE job_id = $1 AND state " + DONE + ")";

    /**
     * {@link JobStateRule#whileOpen} as a table, for a statement that gathered the facts itself: entry
     * {@code 1 + active * 4 + staging * 2 + done} (SQL arrays count from 1) is the rule's answer.
     */
    static final String[] WHILE_OPEN_TABLE = whileOpenTable();

    private JobStateWrites() {
    }

    /** The rule's answer while files are open, from the {@link #PRESENCE} columns starting at {@code first}. */
    private static JobState whileOpen(Row r, int first) {
        return JobStateRule.whileOpen(r.getBoolean(first + 1), r.getBoolean(first + 2), r.getBoolean(first + 3));
    }

    private static String[] whileOpenTable() {
        String[] table = new String[8];
        for (int i = 0; i < 8; i++) {
            table[i] = JobStateRule.whileOpen((i & 4) != 0, (i & 2) != 0, (i & 1) != 0).name();
        }
        return table;
    }

    /**
     * A query, for a CTE of the statement that changes files of one job ({@code $job}), answering the job's state
     * after the change as one row: {@code current} (the job row's), {@code over} (current is final), {@code open}
     * (files are still to do) and {@code next}, the rule's answer while files are open ({@link #WHILE_OPEN_TABLE} in
     * {@code $rule}; current otherwise). A statement's CTEs do not see each other's changes, so the changed files are
     * taken with their new state from {@code changed} (columns file_id, state) and left out of the index probes of the
     * others, which stay probes by job id whatever the job's size. No row when nothing changed (every guard refused):
     * the job is then left as it is, and no probe runs.
     */
    static String decidedAfter(String changed, int job, int rule) {
        String others = "SELECT 1 FROM transfer_file t WHERE t.job_id = $" + job + " AND t.file_id NOT IN (SELECT file_id FROM " + changed + ") AND t.state ";
        UnaryOperator<String> any = state -> "(EXISTS (SELECT 1 FROM " + changed + " WHERE state " + state + ") OR EXISTS (" + others + state + "))";
        return "SELECT current, over, open, CASE WHEN over OR NOT open THEN current "
                + "ELSE ($" + rule + "::text[])[1 + active::int * 4 + staging::int * 2 + done::int] END AS next FROM ("
                + "SELECT j.state AS current, j.state IN (" + JobState.sql(JobState.TERMINAL) + ") AS over, "
                + any.apply(OPEN) + " AS open, " + any.apply(ACTIVE) + " AS active, " + any.apply(STAGING) + " AS staging, " + any.apply(DONE) + " AS done "
                + "FROM job j WHERE j.job_id = $" + job + " AND EXISTS (SELECT 1 FROM " + changed + ")) AS facts";
    }

    /**
     * An update, for a CTE after {@link #decidedAfter}'s {@code decided}, writing the rule's answer while files are
     * open when it differs from the job row's (and the row did not change meanwhile).
     */
    static String writeDecided(String decided, int job) {
        return "UPDATE job j SET state = d.next FROM " + decided + " d WHERE j.job_id = $" + job
                + " AND d.open AND NOT d.over AND d.next <> d.current AND j.state = d.current RETURNING j.job_id";
    }

    /**
     * The job's state after one of its files changed, in that change's transaction. While files are open: by the
     * rule, written only when it differs. When none is open: the final state, if the job row can be had without
     * waiting; otherwise it stays for the settler ({@link StateChanges#settle}).
     */
    static Uni<JobState> afterFileChange(SqlClient c, UUID jobId) {
        return c.preparedQuery("SELECT j.state, " + PRESENCE + " FROM job j WHERE j.job_id = $1")
                .execute(Tuple.of(jobId)).chain(rows -> {
                    Row r = rows.iterator().next();
                    JobState current = JobState.valueOf(r.getString(0));
                    if (current.terminal()) {
                        return Uni.createFrom().item(current);
                    }
                    if (r.getBoolean(1)) {
                        JobState state = whileOpen(r, 1);
                        return state == current ? Uni.createFrom().item(state)
                                : c.preparedQuery("UPDATE job SET state = $2 WHERE job_id = $1 AND state = $3")
                                .execute(Tuple.of(jobId, state.name(), current.name())).replaceWith(state);
                    }
                    return whenNoneOpen(c, jobId, current);
                });
    }

    /**
     * The job's state once none of its files is open: the final state, if the job row can be had without waiting;
     * otherwise {@code current}, and the job stays for the settler ({@link StateChanges#settle}).
     */
    static Uni<JobState> whenNoneOpen(SqlClient c, UUID jobId, JobState current) {
        return c.preparedQuery("SELECT 1 FROM job WHERE job_id = $1 FOR UPDATE SKIP LOCKED").execute(Tuple.of(jobId))
                .chain(locked -> locked.size() == 0 ? Uni.createFrom().item(current) : refresh(c, jobId));
    }

    /**
     * Applies the rule to the job's files and writes the answer; answers the job's state. Call with the job row
     * locked. The count per state runs only once no file is open.
     */
    static Uni<JobState> refresh(SqlClient c, UUID jobId) {
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
    static Uni<JobState> set(SqlClient c, UUID jobId, JobState state, String finalReason) {
        return c.preparedQuery("UPDATE job SET state = $2, finished_at = CASE WHEN $3 THEN coalesce(finished_at, now()) END, "
                        + "reason = CASE WHEN $3 AND $4::text IS NOT NULL THEN $4 ELSE reason END WHERE job_id = $1 AND state <> $2")
                .execute(Tuple.of(jobId, state.name(), state.terminal(), finalReason))
                .chain(updated -> state.terminal() && updated.rowCount() > 0
                        ? c.preparedQuery("DELETE FROM job_token WHERE job_id = $1").execute(Tuple.of(jobId))
                        .chain(x -> c.preparedQuery("DELETE FROM job_submitter_token WHERE job_id = $1").execute(Tuple.of(jobId))).replaceWithVoid()
                        : Uni.createFrom().voidItem())
                .replaceWith(state);
    }
}
