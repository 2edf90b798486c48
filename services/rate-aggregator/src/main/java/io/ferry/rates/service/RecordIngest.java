package io.ferry.rates.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import io.ferry.problem.Problem;
import io.ferry.problem.ProblemException;
import io.ferry.rates.repository.TransferRecordStore;
import io.ferry.rates.rest.TransferRecord;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.List;

/**
 * Takes batches of transfer records (a JSON array or NDJSON): each item is checked on its own, valid items are
 * stored once (by id), invalid ones are answered with their index and errors.
 */
@ApplicationScoped
public class RecordIngest {

    public static final int MAX_ITEMS = 20_000;

    public record Rejected(int index, String id, List<Problem.FieldError> errors) {
    }

    public record Result(int received, int accepted, int duplicates, List<Rejected> rejected) {
    }

    @Inject
    ObjectMapper mapper;

    @Inject
    RecordValidator validator;

    @Inject
    TransferRecordStore store;

    private final Counter accepted;
    private final Counter rejectedCounter;
    private final Counter duplicates;

    @Inject
    public RecordIngest(MeterRegistry registry) {
        this.accepted = registry.counter("ferry.records.ingested", "result", "accepted");
        this.rejectedCounter = registry.counter("ferry.records.ingested", "result", "rejected");
        this.duplicates = registry.counter("ferry.records.ingested", "result", "duplicate");
    }

    @WithSpan
    public Uni<Result> ingest(String body, boolean ndjson) {
        List<JsonNode> items = parse(body, ndjson);
        List<TransferRecord> valid = new ArrayList<>(items.size());
        List<Rejected> rejected = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            JsonNode node = items.get(i);
            String id = node != null && node.hasNonNull("id") ? node.get("id").asText() : null;
            if (node == null || !node.isObject()) {
                rejected.add(new Rejected(i, id, List.of(new Problem.FieldError("", "not a JSON object"))));
                continue;
            }
            try {
                TransferRecord r = mapper.treeToValue(node, TransferRecord.class);
                List<Problem.FieldError> errors = validator.check(r);
                if (errors.isEmpty()) {
                    valid.add(r);
                } else {
                    rejected.add(new Rejected(i, id, errors));
                }
            } catch (UnrecognizedPropertyException e) {
                rejected.add(new Rejected(i, id, List.of(new Problem.FieldError(e.getPropertyName(), "unknown field"))));
            } catch (JsonProcessingException e) {
                String field = e instanceof com.fasterxml.jackson.databind.JsonMappingException m && !m.getPath().isEmpty()
                        ? m.getPath().get(m.getPath().size() - 1).getFieldName() : "";
                rejected.add(new Rejected(i, id, List.of(new Problem.FieldError(field, e.getOriginalMessage()))));
            }
        }
        if (valid.isEmpty() && !rejected.isEmpty()) {
            rejectedCounter.increment(rejected.size());
            List<Problem.FieldError> all = new ArrayList<>();
            rejected.forEach(r -> r.errors().forEach(f -> all.add(new Problem.FieldError("[" + r.index() + "]"
                    + (f.field().isEmpty() ? "" : "." + f.field()), f.message()))));
            throw ProblemException.badRequest("INVALID_RECORDS", "no record in the batch is valid; nothing was stored", all);
        }
        if (valid.isEmpty()) {
            return Uni.createFrom().item(new Result(0, 0, 0, List.of()));
        }
        return store.insertNew(store.pool(), valid).map(inserted -> {
            accepted.increment(inserted.size());
            duplicates.increment(valid.size() - inserted.size());
            rejectedCounter.increment(rejected.size());
            return new Result(items.size(), inserted.size(), valid.size() - inserted.size(), rejected);
        });
    }

    private List<JsonNode> parse(String body, boolean ndjson) {
        if (body == null || body.isBlank()) {
            throw ProblemException.badRequest("body", "expected a JSON array of transfer records or NDJSON");
        }
        List<JsonNode> items = new ArrayList<>();
        String trimmed = body.stripLeading();
        if (!ndjson && trimmed.startsWith("[")) {
            try {
                JsonNode array = mapper.readTree(trimmed);
                array.forEach(items::add);
            } catch (JsonProcessingException e) {
                throw new ProblemException(Problem.of(400, "MALFORMED_BODY", "not a JSON array: " + e.getOriginalMessage()));
            }
        } else {
            for (String line : body.split("\n")) {
                if (line.isBlank()) {
                    continue;
                }
                try {
                    items.add(mapper.readTree(line));
                } catch (JsonProcessingException e) {
                    items.add(null);
                }
            }
        }
        if (items.size() > MAX_ITEMS) {
            throw ProblemException.badRequest("body", "at most " + MAX_ITEMS + " records per request, got " + items.size());
        }
        return items;
    }
}
