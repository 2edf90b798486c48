package io.ferry.rates.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import io.ferry.problem.Problem;
import io.ferry.problem.ProblemException;
import io.ferry.rates.api.IngestResult;
import io.ferry.rates.api.Measurement;
import io.ferry.rates.api.Rejected;
import io.ferry.rates.repository.TransferRecordStore;
import io.ferry.rates.api.TransferRecord;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.List;

/**
 * Takes batches of transfer records (a JSON array or NDJSON): each item is checked on its own, valid items are
 * stored once (by id), invalid ones are answered with their index and errors.
 *
 * <p>Jackson binds the records here and the answers (entities of a {@code Response}) outside any REST method's
 * signature, so a native executable needs them registered for reflection.
 */
@ApplicationScoped
@RegisterForReflection(targets = {TransferRecord.class, Measurement.class, IngestResult.class, Rejected.class})
public class RecordIngest {

    public static final int MAX_ITEMS = 20_000;
    /** The ingest lag histogram's bucket bounds. */
    static final double[] LAG_BUCKETS_SECONDS = {1, 5, 15, 60, 300, 900, 3600};

    final ObjectMapper mapper;

    final RecordValidator validator;

    final TransferRecordStore store;

    private final Counter accepted;
    private final Counter rejectedCounter;
    private final Counter duplicates;
    private final io.micrometer.core.instrument.DistributionSummary lag;

    @Inject
    public RecordIngest(ObjectMapper mapper, RecordValidator validator, TransferRecordStore store, MeterRegistry registry) {
        this.mapper = mapper;
        this.validator = validator;
        this.store = store;
        this.accepted = registry.counter("ferry.records.ingested", "result", "accepted");
        this.rejectedCounter = registry.counter("ferry.records.ingested", "result", "rejected");
        this.duplicates = registry.counter("ferry.records.ingested", "result", "duplicate");
        // How long after a transfer ended its record arrived: the scheduler's outbox delay plus any backlog. One value
        // per batch (its oldest record): a percentile histogram updated per record cost more than parsing it. A few
        // fixed buckets, so that replicas add up and an alert can ask what share of batches came later than a minute.
        this.lag = io.micrometer.core.instrument.DistributionSummary.builder("ferry.records.ingest.lag")
                .baseUnit("seconds").description("time from a transfer's end to the ingest of its batch, oldest record per batch")
                .serviceLevelObjectives(LAG_BUCKETS_SECONDS).register(registry);
    }

    /** One item of a batch: a record to check, or the errors that already rule it out. */
    public record Item(TransferRecord record, String id, List<Problem.FieldError> errors) {
    }

    @WithSpan
    public Uni<IngestResult> ingest(byte[] body, boolean ndjson) {
        int first = firstNonBlank(body, 0, body == null ? 0 : body.length);
        if (first < 0) {
            throw ProblemException.badRequest("body", ndjson ? "expected NDJSON transfer records, one per line"
                    : "expected a JSON array of transfer records or NDJSON");
        }
        if (ndjson || body[first] != '[') {
            return store(parseLines(body));
        }
        List<JsonNode> nodes = parseArray(body);
        List<Item> items = new ArrayList<>(nodes.size());
        for (JsonNode node : nodes) {
            items.add(itemOf(node));
        }
        return store(items);
    }

    /** Validates each item, stores the valid ones once (with their rollups) and answers per item. */
    @WithSpan
    public Uni<IngestResult> store(List<Item> items) {
        List<TransferRecord> valid = new ArrayList<>(items.size());
        List<Rejected> rejected = new ArrayList<>();
        java.time.OffsetDateTime latestAllowed = validator.latestAllowed();
        for (int i = 0; i < items.size(); i++) {
            Item item = items.get(i);
            List<Problem.FieldError> errors = item.record() == null ? item.errors() : validator.check(item.record(), latestAllowed);
            if (errors.isEmpty()) {
                valid.add(item.record());
            } else {
                rejected.add(new Rejected(i, item.id(), errors));
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
            return Uni.createFrom().item(new IngestResult(0, 0, 0, List.of()));
        }
        long now = System.currentTimeMillis();
        return store.insertNew(valid).map(inserted -> {
            accepted.increment(inserted);
            duplicates.increment(valid.size() - inserted);
            rejectedCounter.increment(rejected.size());
            long oldest = now;
            for (TransferRecord r : valid) {
                oldest = Math.min(oldest, r.completedAt().toInstant().toEpochMilli());
            }
            lag.record((now - oldest) / 1000.0);
            return new IngestResult(items.size(), inserted.intValue(), valid.size() - inserted.intValue(), rejected);
        });
    }

    /**
     * NDJSON, the bulk path: each line is read straight from the request bytes into a record (no String copies);
     * only failing lines are re-read for their errors.
     */
    private List<Item> parseLines(byte[] body) {
        com.fasterxml.jackson.databind.ObjectReader reader = mapper.readerFor(TransferRecord.class);
        List<Item> items = new ArrayList<>();
        int start = 0;
        int len = body.length;
        while (start < len) {
            int end = start;
            while (end < len && body[end] != '\n') {
                end++;
            }
            int from = start;
            start = end + 1;
            if (firstNonBlank(body, from, end) < 0) {
                continue;
            }
            if (items.size() >= MAX_ITEMS) {
                throw ProblemException.badRequest("body", "at most " + MAX_ITEMS + " records per request");
            }
            try {
                TransferRecord r = reader.readValue(body, from, end - from);
                // A line reading "null" binds to no record at all.
                items.add(r == null ? itemOf(null) : new Item(r, r.id(), List.of()));
            } catch (java.io.IOException e) {
                items.add(itemOf(readTreeOrNull(body, from, end - from)));
            }
        }
        return items;
    }

    /** Index of the first byte in [from, to) that is not JSON whitespace, or -1. */
    private static int firstNonBlank(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] != ' ' && b[i] != '\t' && b[i] != '\r' && b[i] != '\n') {
                return i;
            }
        }
        return -1;
    }

    private JsonNode readTreeOrNull(byte[] body, int offset, int length) {
        try {
            return mapper.readTree(body, offset, length);
        } catch (java.io.IOException e) {
            return null;
        }
    }

    private Item itemOf(JsonNode node) {
        String id = node != null && node.hasNonNull("id") ? node.get("id").asText() : null;
        if (node == null || !node.isObject()) {
            return new Item(null, id, List.of(new Problem.FieldError("", "not a JSON object")));
        }
        try {
            return new Item(mapper.treeToValue(node, TransferRecord.class), id, List.of());
        } catch (UnrecognizedPropertyException e) {
            return new Item(null, id, List.of(new Problem.FieldError(e.getPropertyName(), "unknown field")));
        } catch (JsonProcessingException e) {
            String field = e instanceof com.fasterxml.jackson.databind.JsonMappingException m && !m.getPath().isEmpty()
                    ? m.getPath().get(m.getPath().size() - 1).getFieldName() : "";
            return new Item(null, id, List.of(new Problem.FieldError(field, e.getOriginalMessage())));
        }
    }

    private List<JsonNode> parseArray(byte[] body) {
        List<JsonNode> items = new ArrayList<>();
        try {
            mapper.readTree(body).forEach(items::add);
        } catch (JsonProcessingException e) {
            throw new ProblemException(Problem.of(400, "MALFORMED_BODY", "not a JSON array: " + e.getOriginalMessage()));
        } catch (java.io.IOException e) {
            throw new ProblemException(Problem.of(400, "MALFORMED_BODY", "not a JSON array: " + e.getMessage()));
        }
        if (items.size() > MAX_ITEMS) {
            throw ProblemException.badRequest("body", "at most " + MAX_ITEMS + " records per request, got " + items.size());
        }
        return items;
    }
}
