package io.ferry.rates.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ferry.problem.Problem;
import io.ferry.problem.ProblemException;
import io.ferry.rates.api.IngestResult;
import io.ferry.rates.api.LatestMeasurements;
import io.ferry.rates.api.Rejected;
import io.ferry.rates.api.StoredMeasurement;
import io.ferry.rates.config.RatesConfig;
import io.ferry.rates.model.Names;
import io.ferry.rates.repository.MeasurementStore;
import io.ferry.rates.api.Measurement;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.smallrye.mutiny.Uni;
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

    final MeasurementStore store;

    final ObjectMapper mapper;

    final Validator validator;

    final RatesConfig config;

    @Inject
    public MeasurementService(MeasurementStore store, ObjectMapper mapper, Validator validator, RatesConfig config) {
        this.store = store;
        this.mapper = mapper;
        this.validator = validator;
        this.config = config;
    }

    @WithSpan
    public Uni<IngestResult> ingest(String body) {
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
        List<Rejected> rejected = new ArrayList<>();
        OffsetDateTime latest = OffsetDateTime.now(ZoneOffset.UTC).plusHours(1);
        if (items.size() > RecordIngest.MAX_ITEMS) {
            throw ProblemException.badRequest("body", "at most " + RecordIngest.MAX_ITEMS + " measurements per request");
        }
        for (int i = 0; i < items.size(); i++) {
            if (!items.get(i).isObject()) {
                rejected.add(new Rejected(i, null, List.of(new Problem.FieldError("", "not a JSON object"))));
                continue;
            }
            try {
                // an unknown field is refused, as in a transfer record: a misspelt one would be lost silently
                Measurement m = mapper.reader().with(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                        .treeToValue(items.get(i), Measurement.class);
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
                    rejected.add(new Rejected(i, null, errors));
                }
            } catch (JsonProcessingException e) {
                rejected.add(new Rejected(i, null, List.of(new Problem.FieldError(
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
        return store.insert(valid).map(inserted -> new IngestResult(items.size(), inserted, valid.size() - inserted, rejected));
    }

    /**
     * The latest measurement from {@code host} to each peer (either direction) within the reads' maximum window, at
     * most {@code ferry.rates.reads.max-peers} peers, for tcp-profiles' per-host advice.
     */
    @WithSpan
    public Uni<LatestMeasurements> latest(String host) {
        if (host == null || host.isBlank()) {
            throw ProblemException.badRequest("host", "is required");
        }
        Names.queryName("host", host);
        OffsetDateTime since = OffsetDateTime.now(ZoneOffset.UTC).minus(config.reads().maxWindow());
        return store.latest(host, since, config.reads().maxPeers()).map(peers -> new LatestMeasurements(host, peers));
    }

    /**
     * The latest {@code limit} measurements within the reads' maximum window, optionally of one source and/or
     * destination.
     */
    @WithSpan
    public Uni<List<StoredMeasurement>> list(String source, String destination, int limit) {
        Names.queryName("source", source);
        Names.queryName("destination", destination);
        return store.list(source, destination, OffsetDateTime.now(ZoneOffset.UTC).minus(config.reads().maxWindow()), limit);
    }
}
