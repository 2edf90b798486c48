package io.ferry.resolver.resolution;

import io.ferry.resolver.api.HandleResponse;
import io.ferry.resolver.model.HandleValue;
import io.ferry.resolver.model.ValueRules;
import io.ferry.resolver.repository.HandleStore;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;

/** What a stored handle resolves to, in Handle.net's JSON shape. */
public final class HandleAnswers {

    private HandleAnswers() {
    }

    /** The resolution of a stored handle, with only the values that match the type and index filters. */
    public static Answer answer(HandleStore.Stored h, List<String> types, List<Integer> indices, OffsetDateTime now) {
        List<HandleValue> selected = types.isEmpty() && indices.isEmpty() ? h.values()
                : h.values().stream().filter(v -> selected(v, types, indices)).toList();
        long ttl = ValueRules.minTtlSeconds(selected, now);
        Map<String, Object> tombstone = h.tombstonedAt() == null ? null
                : Map.of("at", h.tombstonedAt().toString(), "reason", h.tombstoneReason() == null ? "" : h.tombstoneReason());
        if (selected.isEmpty()) {
            return new Answer(200, new HandleResponse(200, h.handle(), List.of(), "Values Not Found",
                    tombstone, null, null, null, null, null, null, null, null), ttl);
        }
        return new Answer(200, tombstone == null ? HandleResponse.ok(h.handle(), selected) : new HandleResponse(1, h.handle(), selected, null,
                tombstone, null, null, null, null, null, null, null, null), ttl);
    }

    public static boolean selected(HandleValue v, List<String> types, List<Integer> indices) {
        boolean typeOk = types.isEmpty() || types.stream().anyMatch(t -> v.type().equalsIgnoreCase(t) || v.type().startsWith(t + "."));
        boolean indexOk = indices.isEmpty() || indices.contains(v.index());
        return (types.isEmpty() && indices.isEmpty()) || (!types.isEmpty() && typeOk) || (!indices.isEmpty() && indexOk);
    }

}
