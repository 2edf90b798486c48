package io.ferry.rates.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ferry.problem.Problem;
import io.ferry.problem.ProblemException;
import io.ferry.rates.config.RatesConfig;
import io.ferry.rates.model.Names;
import io.ferry.rates.rest.Measurement;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.validation.Validator;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/** Network measurements: ingest (idempotent per source, destination, tool and time) and queries. */
@ApplicationScoped
public class MeasurementService {

    public record Stored(long id, Measurement measurement) {
    }

    public record PeerLatest(String peer, Double rtt_ms, Double throughput_bps, OffsetDateTime measured_at, String tool) {
    }

    public record Latest(String host, List<PeerLatest> peers) {
    }

    @Inject
    Pool pool;

    @Inject
    ObjectMapper mapper;

    @Inject
    Validator validator;

    @Inject
    RatesConfig config;

    @WithSpan
    public Uni<RecordIngest.Result> ingest(String body) {
        JsonNode root;
        try {
            root = mapper.readTree(body == null ? "" : body);
        } catch (JsonProcessingException e) {
            throw new ProblemException(Problem.of(400, "MALFORMED_BODY", "not JSON: " + e.getOriginalMessage()));
        }
        if (root == null || !(root.isArray() || root.isObject())) {
            throw ProblemException.badRequest("body", "expected a measurement or an array of measurements");
        }
        List<JsonNode> items = new ArrayList<>();
        if (root.isArray()) {
            root.forEach(items::add);
        } else {
            items.add(root);
        }
        List<Measurement> valid = new ArrayList<>();
        List<RecordIngest.Rejected> rejected = new ArrayList<>();
        OffsetDateTime latest = OffsetDateTime.now(ZoneOffset.UTC).plusHours(1);
        if (items.size() > RecordIngest.MAX_ITEMS) {
            throw ProblemException.badRequest("body", "at most " + RecordIngest.MAX_ITEMS + " measurements per request");
        }
        for (int i = 0; i < items.size(); i++) {
            if (!items.get(i).isObject()) {
                rejected.add(new RecordIngest.Rejected(i, null, List.of(new Problem.FieldError("", "not a JSON object"))));
                continue;
            }
            try {
                Measurement m = mapper.treeToValue(items.get(i), Measurement.class);
                List<Problem.FieldError> errors = validator.validate(m).stream()
                        .map(v -> new Problem.FieldError(v.getPropertyPath().toString(), v.getMessage())).toList();
                if (errors.isEmpty() && (m.time().getYear() < 1970 || m.time().isAfter(latest))) {
                    errors = List.of(new Problem.FieldError("time", "must lie between 1970 and now"));
                }
                if (errors.isEmpty() && m.throughput_bps() == null && m.rtt_ms() == null && m.loss() == null) {
                    errors = List.of(new Problem.FieldError("throughput_bps", "a measurement needs throughput_bps, rtt_ms or loss"));
                }
                if (errors.isEmpty()) {
                    valid.add(m);
                } else {
                    rejected.add(new RecordIngest.Rejected(i, null, errors));
                }
            } catch (JsonProcessingException e) {
                rejected.add(new RecordIngest.Rejected(i, null, List.of(new Problem.FieldError(
                        e instanceof com.fasterxml.jackson.databind.JsonMappingException jm && !jm.getPath().isEmpty()
                                ? jm.getPath().get(jm.getPath().size() - 1).getFieldName() : "", e.getOriginalMessage()))));
            }
        }
        if (valid.isEmpty()) {
            List<Problem.FieldError> all = new ArrayList<>();
            rejected.forEach(r -> r.errors().forEach(f -> all.add(new Problem.FieldError("[" + r.index() + "]"
                    + (f.field().isEmpty() ? "" : "." + f.field()), f.message()))));
            throw ProblemException.badRequest("INVALID_MEASUREMENTS", "no measurement is valid; nothing was stored", all);
        }
        String sql = "INSERT INTO measurement (source, destination, tool, measured_at, throughput_bps, rtt_ms, loss, retransmits, streams) "
                + "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (source, destination, tool, measured_at) DO NOTHING";
        List<Tuple> batch = valid.stream().map(m -> Tuple.from(java.util.Arrays.asList(m.source(), m.destination(), m.tool(), m.time(),
                m.throughput_bps(), m.rtt_ms(), m.loss(), m.retransmits(), m.streams()))).toList();
        return pool.preparedQuery(sql).executeBatch(batch).map(rows -> {
            int inserted = 0;
            for (var rs = rows; rs != null; rs = rs.next()) {
                inserted += rs.rowCount();
            }
            return new RecordIngest.Result(items.size(), inserted, valid.size() - inserted, rejected);
        });
    }

    /**
     * The latest measurement from {@code host} to each peer (either direction) within the reads' maximum window, at
     * most {@code ferry.rates.reads.max-peers} peers, for tcp-profiles' per-host advice. Each direction is read
     * through its index (source: measurement_pair_idx; destination: V11's measurement_destination_idx).
     */
    static final String LATEST = "SELECT DISTINCT ON (peer) peer, rtt_ms, throughput_bps, measured_at, tool FROM ("
            + "SELECT destination AS peer, rtt_ms, throughput_bps, measured_at, tool FROM measurement WHERE source = $1 AND measured_at >= $2 "
            + "UNION ALL SELECT source AS peer, rtt_ms, throughput_bps, measured_at, tool FROM measurement WHERE destination = $1 AND measured_at >= $2"
            + ") m ORDER BY peer, measured_at DESC LIMIT $3";

    @WithSpan
    public Uni<Latest> latest(String host) {
        if (host == null || host.isBlank()) {
            throw ProblemException.badRequest("host", "is required");
        }
        Names.queryName("host", host);
        OffsetDateTime since = OffsetDateTime.now(ZoneOffset.UTC).minus(config.reads().maxWindow());
        return pool.preparedQuery(LATEST).execute(Tuple.of(host, since, config.reads().maxPeers())).map(rows -> {
            List<PeerLatest> peers = new ArrayList<>();
            for (Row r : rows) {
                peers.add(new PeerLatest(r.getString(0), r.getDouble(1), r.getDouble(2), r.getOffsetDateTime(3), r.getString(4)));
            }
            return new Latest(host, peers);
        });
    }

    /**
     * The latest {@code limit} measurements, optionally of one source and/or destination. The statement names only
     * the filters given, so that each combination is read through an index (V11) newest first.
     */
    @WithSpan
    public Uni<List<Stored>> list(String source, String destination, int limit) {
        Names.queryName("source", source);
        Names.queryName("destination", destination);
        List<Object> args = new ArrayList<>();
        StringBuilder where = new StringBuilder(" WHERE measured_at >= $1");
        args.add(OffsetDateTime.now(ZoneOffset.UTC).minus(config.reads().maxWindow()));
        if (source != null) {
            args.add(source);
            where.append(" AND source = $").append(args.size());
        }
        if (destination != null) {
            args.add(destination);
            where.append(" AND destination = $").append(args.size());
        }
        args.add(limit);
        String sql = "SELECT id, source, destination, tool, measured_at, throughput_bps, rtt_ms, loss, retransmits, streams FROM measurement"
                + where + " ORDER BY measured_at DESC LIMIT $" + args.size();
        return pool.preparedQuery(sql).execute(Tuple.from(args)).map(rows -> {
            List<Stored> out = new ArrayList<>();
            for (Row r : rows) {
                out.add(new Stored(r.getLong(0), new Measurement(r.getString(1), r.getString(2), r.getString(3), r.getOffsetDateTime(4),
                        r.getDouble(5), r.getDouble(6), r.getDouble(7), r.getLong(8), r.getInteger(9))));
            }
            return out;
        });
    }
}
