package io.ferry.rates.repository;

import io.ferry.rates.api.TransferRecord;
import io.vertx.mutiny.sqlclient.Tuple;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The rollup increments of a batch of newly stored records: partial sums per 5-minute bin and key, queued in
 * {@code rollup_pending} for {@link RollupSql#DRAIN}. Computed here rather than in the insert statement because
 * PostgreSQL spent a third of its ingest time on it (the inserted rows kept in a CTE, an expression per fact,
 * hashing the text keys); the JVM does the same work in a fraction of that. Timestamps count in whole
 * microseconds, as PostgreSQL stores them, so the sums equal a recomputation from the raw rows (see
 * {@code RollupConsistencyTest}, which recomputes in SQL).
 */
public final class RollupIncrements {

    private static final long BIN_MICROS = 300_000_000L;
    /** The origin every rollup bin is aligned on (RollupSql.ORIGIN). */
    private static final long ORIGIN_MICROS = micros(OffsetDateTime.of(2000, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC));

    /** One row holds the batch's increments, element i of each array being increment i (see migration V7). */
    static final String QUEUE = "INSERT INTO rollup_pending (increments, " + RollupSql.PENDING_COLUMNS + ") VALUES "
            + "($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)";

    /** A 5-minute bin and the ids (RollupKeys) of its link, site pair and VO/activity. */
    private record Key(long binMicros, int link, int site, int vo) {
    }

    private static final class Sums {
        long done, failed, canceled, bytes, sizeDone;
        double transfer, prepare, checksum, queue, throughputSum, throughputMax;
    }

    private final Map<Key, Sums> sums = new HashMap<>();

    private RollupIncrements() {
    }

    /**
     * The increments of these records (each must be new: stored by this transaction, listed once), whose keys
     * {@code keys} has registered.
     */
    public static RollupIncrements of(List<TransferRecord> records, RollupKeys keys) {
        RollupIncrements increments = new RollupIncrements();
        for (TransferRecord r : records) {
            increments.add(r, keys);
        }
        return increments;
    }

    private void add(TransferRecord r, RollupKeys keys) {
        long completed = micros(r.completedAt());
        Key key = new Key(ORIGIN_MICROS + Math.floorDiv(completed - ORIGIN_MICROS, BIN_MICROS) * BIN_MICROS,
                keys.id(RollupKeys.link(r)), keys.id(RollupKeys.site(r)), keys.id(RollupKeys.vo(r)));
        Sums s = sums.computeIfAbsent(key, k -> new Sums());
        double throughput = 0;
        switch (r.outcome()) {
            case "FINISHED" -> {
                s.done++;
                s.bytes += r.bytes_transferred();
                s.sizeDone += r.filesize() != null ? r.filesize() : r.bytes_transferred();
                double transfer = seconds(r.transfer_started_at(), r.transfer_ended_at());
                s.transfer += transfer;
                s.prepare += seconds(r.prepare_started_at(), r.prepare_ended_at());
                s.checksum += seconds(r.checksum_started_at(), r.checksum_ended_at());
                OffsetDateTime started = r.prepare_started_at() != null ? r.prepare_started_at() : r.transfer_started_at();
                s.queue += Math.max(seconds(r.submitted_at(), started), 0);
                if (r.throughput_bytes_per_s() != null) {
                    throughput = r.throughput_bytes_per_s();
                } else if (transfer != 0) {
                    throughput = r.bytes_transferred() / transfer;
                }
            }
            case "FAILED" -> s.failed++;
            default -> s.canceled++;
        }
        s.throughputSum += throughput;
        s.throughputMax = Math.max(s.throughputMax, throughput);
    }

    /** The arguments of {@link #QUEUE}: the number of increments, then one array per column of {@code rollup_pending}. */
    Tuple arguments() {
        int n = sums.size();
        OffsetDateTime[] bin = new OffsetDateTime[n];
        Integer[][] keys = new Integer[3][n];
        Long[][] counts = new Long[5][n];
        Double[][] measures = new Double[6][n];  // seconds of each phase, then throughput sum and maximum
        int i = 0;
        for (Map.Entry<Key, Sums> e : sums.entrySet()) {
            Key k = e.getKey();
            Sums s = e.getValue();
            bin[i] = OffsetDateTime.ofInstant(Instant.EPOCH.plusNanos(k.binMicros() * 1000), ZoneOffset.UTC);
            keys[0][i] = k.link();
            keys[1][i] = k.site();
            keys[2][i] = k.vo();
            counts[0][i] = s.done;
            counts[1][i] = s.failed;
            counts[2][i] = s.canceled;
            counts[3][i] = s.bytes;
            counts[4][i] = s.sizeDone;
            measures[0][i] = s.transfer;
            measures[1][i] = s.prepare;
            measures[2][i] = s.checksum;
            measures[3][i] = s.queue;
            measures[4][i] = s.throughputSum;
            measures[5][i] = s.throughputMax;
            i++;
        }
        return Tuple.from(Arrays.asList(n, bin, keys[0], keys[1], keys[2], counts[0], counts[1],
                counts[2], counts[3], counts[4], measures[0], measures[1], measures[2], measures[3], measures[4], measures[5]));
    }

    /** The length of a phase in seconds, 0 when it lacks an end (PostgreSQL: coalesce(extract(epoch …), 0)). */
    private static double seconds(OffsetDateTime from, OffsetDateTime to) {
        return from == null || to == null ? 0 : (micros(to) - micros(from)) / 1e6;
    }

    /** Whole microseconds since the epoch, rounded down as TransferRecordStore stores a timestamp. */
    private static long micros(OffsetDateTime t) {
        return Math.multiplyExact(t.toEpochSecond(), 1_000_000L) + t.getNano() / 1000;
    }
}
