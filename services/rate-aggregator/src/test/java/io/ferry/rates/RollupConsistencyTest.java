package io.ferry.rates;

import io.ferry.dev.FerryTestResource;
import io.ferry.rates.repository.ExpiredRows;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Rollups kept incrementally during ingest (random order, batches overlapping, records re-sent) must equal a
 * brute-force recomputation over the raw records.
 */
@QuarkusTest
@WithTestResource(FerryTestResource.class)
class RollupConsistencyTest {

    /**
     * The facts of each raw record (CTE {@code raw}), defined in SQL: the service computes them in Java as it
     * stores a batch (RollupIncrements), so the two definitions check each other.
     */
    static final String FACTS = "facts AS (SELECT i.*, "
            + "(i.outcome = 'FINISHED')::int AS done, (i.outcome = 'FAILED')::int AS failed, (i.outcome = 'CANCELED')::int AS canceled, "
            + "CASE WHEN i.outcome = 'FINISHED' THEN coalesce(extract(epoch FROM i.transfer_ended_at - i.transfer_started_at), 0) ELSE 0 END AS t_s, "
            + "CASE WHEN i.outcome = 'FINISHED' THEN coalesce(extract(epoch FROM i.prepare_ended_at - i.prepare_started_at), 0) ELSE 0 END AS p_s, "
            + "CASE WHEN i.outcome = 'FINISHED' THEN coalesce(extract(epoch FROM i.checksum_ended_at - i.checksum_started_at), 0) ELSE 0 END AS c_s, "
            + "CASE WHEN i.outcome = 'FINISHED' THEN greatest(coalesce(extract(epoch FROM coalesce(i.prepare_started_at, i.transfer_started_at) - i.submitted_at), 0), 0) ELSE 0 END AS q_s, "
            + "CASE WHEN i.outcome = 'FINISHED' THEN coalesce(i.throughput_bytes_per_s, "
            + "  i.bytes_transferred / nullif(extract(epoch FROM i.transfer_ended_at - i.transfer_started_at), 0), 0) ELSE 0 END AS thr "
            + "FROM raw i)";

    @Inject
    Pool pool;

    static String record(Random rnd, int i, Instant base) {
        String[] ses = {"RAL-ECHO", "CERN-EOS", "FNAL-DCACHE", "BNL-DCACHE"};
        String[] sites = {"RAL-LCG2", "CERN-PROD", "USCMS-FNAL-WC1", "BNL-ATLAS"};
        int s = rnd.nextInt(4);
        int d = (s + 1 + rnd.nextInt(3)) % 4;
        long size = 1_000_000L + rnd.nextInt(2_000_000_000);
        // nanosecond times (stored as microseconds), and some records without sites or activity
        Instant submitted = base.plusSeconds(rnd.nextInt(3 * 86400)).plusNanos(rnd.nextInt(1_000_000_000));
        double queue = rnd.nextInt(600);
        double prepare = rnd.nextInt(60);
        double transfer = 1 + rnd.nextInt(600);
        double checksum = rnd.nextInt(20);
        String outcome = rnd.nextInt(10) < 8 ? "FINISHED" : rnd.nextBoolean() ? "FAILED" : "CANCELED";
        Instant ps = submitted.plusMillis((long) (queue * 1000));
        Instant pe = ps.plusMillis((long) (prepare * 1000));
        Instant te = pe.plusMillis((long) (transfer * 1000));
        Instant ce = te.plusMillis((long) (checksum * 1000));
        boolean withThroughput = rnd.nextBoolean();
        return "{\"id\":\"rc-" + i + "\",\"vo\":\"" + (rnd.nextBoolean() ? "atlas" : "cms") + "\","
                + (i % 5 == 0 ? "" : "\"activity\":\"" + (rnd.nextBoolean() ? "Production" : "User") + "\",")
                + "\"source_se\":\"" + ses[s] + "\",\"dest_se\":\"" + ses[d] + "\","
                + (i % 7 == 0 ? "" : "\"source_site\":\"" + sites[s] + "\",\"dest_site\":\"" + sites[d] + "\",") + "\"filesize\":" + size
                + ",\"bytes_transferred\":" + (outcome.equals("FINISHED") ? size : 0) + ",\"submitted_at\":\"" + submitted
                + "\",\"prepare_started_at\":\"" + ps + "\",\"prepare_ended_at\":\"" + pe + "\",\"transfer_started_at\":\"" + pe
                + "\",\"transfer_ended_at\":\"" + te + "\",\"checksum_started_at\":\"" + te + "\",\"checksum_ended_at\":\"" + ce
                + "\"," + (withThroughput && outcome.equals("FINISHED") ? "\"throughput_bytes_per_s\":" + (size / transfer) + "," : "")
                + "\"outcome\":\"" + outcome + "\"" + (outcome.equals("FAILED") ? ",\"error_code\":\"TIMEOUT\",\"error_phase\":\"transfer\"" : "") + "}";
    }

    @Test
    void incrementalRollupsEqualABruteForceRecomputation() {
        Random rnd = new Random(42);
        Instant base = Instant.now().minusSeconds(5 * 86400);
        List<String> records = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            records.add(record(rnd, i, base));
        }
        List<String> shuffled = new ArrayList<>(records);
        Collections.shuffle(shuffled, rnd);
        // Overlapping batches: about a third of all records are delivered twice.
        String token = FerryTestResource.token(null, "rates:write");
        int delivered = 0;
        for (int start = 0; start < shuffled.size(); start += 250) {
            List<String> batch = new ArrayList<>(shuffled.subList(start, Math.min(shuffled.size(), start + 250)));
            if (start > 0) {
                batch.addAll(shuffled.subList(start - 125, start));
            }
            delivered += batch.size();
            given().auth().oauth2(token).contentType(ContentType.JSON).body("[" + String.join(",", batch) + "]")
                    .post("/records").then().statusCode(200);
        }
        assertTrue(delivered > records.size());
        given().auth().oauth2(token).post("/rollups/flush").then().statusCode(200)
                .body("pendingAfter", org.hamcrest.Matchers.equalTo(0));

        Map<String, double[]> kept = rows("SELECT bin_seconds, bin_start, dim, k1, k2, files_done, files_failed, files_canceled, bytes, "
                + "size_done, transfer_s, prepare_s, checksum_s, queue_s, throughput_sum, throughput_max FROM rollup");
        // Every raw record, whichever test stored it, must be in the rollups exactly once.
        String bruteForce = "WITH raw AS (SELECT * FROM transfer_record), " + FACTS
                + " SELECT b.sec, date_bin(make_interval(secs => b.sec), f.completed_at, TIMESTAMPTZ '2000-01-01 00:00:00+00'), d.dim, d.k1, d.k2, "
                + "sum(f.done), sum(f.failed), sum(f.canceled), sum(CASE WHEN f.done = 1 THEN f.bytes_transferred ELSE 0 END), "
                + "sum(CASE WHEN f.done = 1 THEN coalesce(f.filesize, f.bytes_transferred) ELSE 0 END), sum(f.t_s), sum(f.p_s), "
                + "sum(f.c_s), sum(f.q_s), sum(f.thr), max(f.thr) FROM facts f CROSS JOIN (VALUES (300), (3600), (86400)) AS b(sec) "
                + "CROSS JOIN LATERAL (VALUES ('link', f.source_se, f.dest_se), ('site', coalesce(f.source_site, 'unknown'), "
                + "coalesce(f.dest_site, 'unknown')), ('vo', f.vo, f.activity)) AS d(dim, k1, k2) GROUP BY 1, 2, 3, 4, 5";
        Map<String, double[]> expected = rows(bruteForce);
        assertEquals(3000L, pool.query("SELECT count(*) FROM transfer_record WHERE id LIKE 'rc-%'").execute().await().indefinitely()
                .iterator().next().getLong(0));
        assertEquals(expected.keySet(), kept.keySet(), "the same rollup rows exist");
        expected.forEach((key, want) -> {
            double[] have = kept.get(key);
            for (int i = 0; i < want.length; i++) {
                assertEquals(want[i], have[i], Math.abs(want[i]) * 1e-9 + 1e-6, key + " column " + i);
            }
        });
    }

    @Test
    void retentionDropsOnlyExpiredFiveMinuteRollups() {
        String token = FerryTestResource.token(null, "rates:write");
        String batch = "[" + retained("ret-1", "2001-01-10T10:00:00Z") + "," + retained("ret-2", "2001-12-10T10:00:00Z") + "]";
        given().auth().oauth2(token).contentType(ContentType.JSON).body(batch).post("/records").then().statusCode(200);
        given().auth().oauth2(token).post("/rollups/flush").then().statusCode(200);
        String bins = "SELECT bin_seconds || ' ' || to_char(bin_start AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') FROM rollup "
                + "WHERE dim = 'link' AND k1 = 'RET-SRC' AND k2 = 'RET-DST' ORDER BY bin_seconds, bin_start";
        try {
            pool.preparedQuery(ExpiredRows.EXPIRED_FINE_ROLLUPS)
                    .execute(Tuple.of(OffsetDateTime.parse("2001-06-01T00:00:00Z"))).await().indefinitely();
            List<String> left = new ArrayList<>();
            pool.query(bins).execute().await().indefinitely().forEach(r -> left.add(r.getString(0)));
            assertEquals(List.of("300 2001-12-10 10:00", "3600 2001-01-10 10:00", "3600 2001-12-10 10:00",
                    "86400 2001-01-10 00:00", "86400 2001-12-10 00:00"), left);
        } finally {
            // Leaves no rollup without its raw records behind, for the brute-force recomputation above.
            pool.query("DELETE FROM rollup_bin WHERE key_id IN (SELECT id FROM rollup_key WHERE k1 IN ('RET-SRC', 'RET-S1', 'retention'))")
                    .execute().await().indefinitely();
            pool.query("DELETE FROM transfer_record WHERE id LIKE 'ret-%'").execute().await().indefinitely();
        }
    }

    /** A record of a link, site pair and VO no other test uses, completed at {@code end}. */
    static String retained(String id, String end) {
        Instant e = Instant.parse(end);
        return "{\"id\":\"" + id + "\",\"vo\":\"retention\",\"source_se\":\"RET-SRC\",\"dest_se\":\"RET-DST\","
                + "\"source_site\":\"RET-S1\",\"dest_site\":\"RET-S2\",\"filesize\":1000,\"bytes_transferred\":1000,"
                + "\"transfer_started_at\":\"" + e.minusSeconds(10) + "\",\"transfer_ended_at\":\"" + e + "\",\"outcome\":\"FINISHED\"}";
    }

    Map<String, double[]> rows(String sql) {
        Map<String, double[]> out = new TreeMap<>();
        for (Row r : pool.query(sql).execute().await().indefinitely()) {
            String key = r.getInteger(0) + "|" + r.getOffsetDateTime(1).withOffsetSameInstant(ZoneOffset.UTC) + "|" + r.getString(2)
                    + "|" + r.getString(3) + "|" + r.getString(4);
            double[] v = new double[11];
            for (int i = 0; i < 11; i++) {
                Object o = r.getValue(5 + i);
                v[i] = o == null ? 0 : ((Number) o).doubleValue();
            }
            out.put(key, v);
        }
        return out;
    }

    static OffsetDateTime utc(Instant i) {
        return i.atOffset(ZoneOffset.UTC);
    }
}
