package io.ferry.rates.repository;

import io.ferry.dev.FerryTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.OffsetDateTime;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The anonymous reads over raw records and measurements go through their indexes. Test tables are small, so
 * PostgreSQL would scan them whole anyway: sequential scans are priced out for these plans, which then show the
 * index the statement lets the planner use (an index on time alone would read every link's records).
 */
@QuarkusTest
@WithTestResource(FerryTestResource.class)
class ReadPlansTest {

    @Inject
    Pool pool;

    String plan(String sql, Tuple args) {
        return pool.withTransaction(c -> c.query("SET LOCAL enable_seqscan = off").execute()
                .flatMap(x -> c.preparedQuery("EXPLAIN " + sql).execute(args))
                .map(rows -> {
                    StringBuilder out = new StringBuilder();
                    for (Row r : rows) {
                        out.append(r.getString(0)).append('\n');
                    }
                    return out.toString();
                })).await().indefinitely();
    }

    @Test
    void rawRecordReadsUseThePerLinkIndex() {
        OffsetDateTime from = OffsetDateTime.parse("2026-11-01T00:00:00Z");
        OffsetDateTime at = from.plusDays(7);
        OffsetDateTime to = at.plusDays(7);
        String regression = plan(RawRecordReads.REGRESSION, Tuple.of("A", "B", from, to, 1001));
        String link = plan(RawRecordReads.compareSql(RawRecordReads.LINK), Tuple.of("A", "B", from, at, to, 501));
        String se = plan(RawRecordReads.compareSql(RawRecordReads.links("source_se", "dest_se")),
                Tuple.of(new Integer[]{1, 2}, "A", from, at, to, 501));
        String site = plan(RawRecordReads.compareSql(RawRecordReads.links("source_site", "dest_site")),
                Tuple.of(new Integer[]{1, 2}, "S", from, at, to, 501));
        for (String p : new String[]{regression, link, se, site}) {
            assertTrue(p.contains("transfer_record_link_day_idx"), p);
            assertFalse(p.contains("transfer_record_completed_idx") || p.contains("Seq Scan"), p);
            assertTrue(p.contains("Limit"), "bounded by LIMIT: " + p);
        }
        String keys = plan(RawRecordReads.SITE_LINKS, Tuple.of("S", 1001));
        assertTrue(keys.contains("rollup_key_k2_idx"), keys);
    }

    @Test
    void probeReadsUseThePartialProbeIndex() {
        OffsetDateTime since = OffsetDateTime.parse("2026-11-01T00:00:00Z");
        for (String p : new String[]{plan(ProbeRecords.SQL, Tuple.of("A", "B", since, 1000)), plan(ProbeRecords.LINKS, Tuple.of(since, 200))}) {
            assertTrue(p.contains("transfer_record_probe_idx"), p);
            assertFalse(p.contains("Seq Scan"), p);
            assertTrue(p.contains("Limit"), "bounded by LIMIT: " + p);
        }
    }

    @Test
    void measurementReadsUseAnIndexPerDirection() {
        String latest = plan(MeasurementStore.LATEST, Tuple.of("h", OffsetDateTime.parse("2026-01-01T00:00:00Z"), 1000));
        assertTrue(latest.contains("measurement_pair_idx") || latest.contains("measurement_source_destination_tool_measured_at_key"), latest);
        assertTrue(latest.contains("measurement_destination_idx"), latest);
        assertFalse(latest.contains("Seq Scan"), latest);
    }
}
