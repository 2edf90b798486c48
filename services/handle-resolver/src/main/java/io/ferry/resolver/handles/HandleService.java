package io.ferry.resolver.handles;

import io.ferry.resolver.authentication.SecretKeys;
import io.ferry.resolver.cache.ResolutionCache;
import io.ferry.resolver.authentication.HandleAccess;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import io.ferry.resolver.model.AdminPermissions;
import io.ferry.resolver.model.HandleException;
import io.ferry.resolver.model.HandleName;
import io.ferry.resolver.model.HandleValue;
import io.ferry.resolver.model.Locations;
import io.ferry.resolver.model.ValueFormats;
import io.ferry.resolver.model.ValueRules;
import io.ferry.resolver.repository.HandleStore;
import io.ferry.resolver.api.HandleListing;
import io.ferry.resolver.api.HandleResponse;
import io.ferry.resolver.resolution.Answer;
import io.ferry.resolver.resolution.HandleAnswers;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Handle.net's JSON REST semantics: resolve, create or replace, add or modify values, delete, list. */
@ApplicationScoped
public class HandleService {

    final HandleStore store;

    final HandleAccess access;

    final ResolutionCache cache;

    final ObjectMapper json;

    @Inject
    public HandleService(HandleStore store, HandleAccess access, ResolutionCache cache, ObjectMapper json) {
        this.store = store;
        this.access = access;
        this.cache = cache;
        this.json = json;
    }

    @WithSpan
    public Uni<Answer> resolve(String handle, List<String> types, List<Integer> indices) {
        return resolve(handle, types, indices, null);
    }

    /**
     * A resolution; {@code publicOnly} as CNRI's servlet reads it: true answers only the public values whoever asks,
     * false (or null, the default) what the caller may read.
     */
    @WithSpan
    public Uni<Answer> resolve(String handle, List<String> types, List<Integer> indices, Boolean publicOnly) {
        HandleName name = HandleName.parse(handle);
        if (name == null) {
            throw HandleException.invalidHandle(handle);
        }
        // Anonymous readers get the public values, from the cache (which holds only those); a caller with a token
        // gets what it may read, from the database.
        return access.reader(handle).flatMap(reader -> (reader.isEmpty() ? cache.find(handle) : store.find(handle))
                .flatMap(found -> {
                    if (found.isEmpty()) {
                        return homed(store.pool(), name).map(homed -> {
                            throw homed ? HandleException.notFound(handle) : HandleException.notResponsible(handle);
                        });
                    }
                    Uni<HandleStore.Stored> readable = reader.isEmpty() ? Uni.createFrom().item(found.get())
                            : Boolean.TRUE.equals(publicOnly) ? Uni.createFrom().item(found.get().publicView())
                            : access.readable(reader.get(), found.get());
                    return readable.map(h -> HandleAnswers.answer(h, types, indices, OffsetDateTime.now(ZoneOffset.UTC)));
                }));
    }

    /**
     * PUT: without {@code indices}, creates the handle or replaces all its values ({@code overwrite=false} refuses
     * an existing handle); with {@code indices}, adds or modifies just those values ({@code overwrite=false}
     * refuses existing ones). {@code mintNewSuffix} appends a new unique suffix to the given handle.
     */
    @WithSpan
    public Uni<Answer> put(String requested, String body, List<Integer> indices, boolean overwrite, boolean mintNewSuffix) {
        return put(requested, body, indices, false, overwrite, mintNewSuffix);
    }

    /**
     * As {@link #put(String, String, List, boolean, boolean)}; {@code variousIndices} ({@code ?index=various}) adds
     * or modifies every value of the body, as a list of indices naming all of them would.
     */
    @WithSpan
    public Uni<Answer> put(String requested, String body, List<Integer> requestedIndices, boolean variousIndices, boolean overwrite,
                           boolean mintNewSuffix) {
        String handle = mintNewSuffix ? mint(requested) : requested;
        if (HandleName.parse(handle) == null) {
            throw HandleException.invalidHandle(requested);
        }
        List<HandleValue> values = parseValues(handle, body, !mintNewSuffix);
        List<Integer> indices = variousIndices ? values.stream().map(HandleValue::index).toList() : requestedIndices;
        if (variousIndices && indices.isEmpty()) {
            throw HandleException.invalidValue(handle, "index=various needs at least one value");
        }
        return put(access.caller(handle), handle, values, indices, overwrite);
    }

    /**
     * The same PUT for a caller authenticated elsewhere (the native Handle protocol's challenge-response), with
     * the values already decoded; the answer's body names the handle written (minted when asked).
     */
    @WithSpan
    public Uni<Answer> put(HandleAccess.Caller caller, String requested, List<HandleValue> values, List<Integer> indices,
                           boolean overwrite, boolean mintNewSuffix) {
        String handle = mintNewSuffix ? mint(requested) : requested;
        if (HandleName.parse(handle) == null) {
            throw HandleException.invalidHandle(requested);
        }
        return put(Uni.createFrom().item(caller), handle, values.stream().map(HandleValue::withDefaultPermissions).toList(), indices, overwrite);
    }

    private Uni<Answer> put(Uni<HandleAccess.Caller> callerOf, String handle, List<HandleValue> values, List<Integer> indices, boolean overwrite) {
        HandleName name = HandleName.parse(handle);
        String problem = ValueRules.check(values);
        if (problem != null) {
            throw HandleException.invalidValue(handle, problem);
        }
        List<HandleValue> incoming = indices.isEmpty() ? values : values.stream().filter(v -> indices.contains(v.index())).toList();
        if (!indices.isEmpty() && incoming.isEmpty()) {
            throw HandleException.invalidValue(handle, "the body has no values at the requested indices " + indices);
        }
        Map<Integer, List<Locations.Location>> locations = parsedLocations(handle, incoming);
        return cache.afterWrite(handle, callerOf.flatMap(caller -> store.pool().withTransaction(c -> homed(c, name)
                .flatMap(homed -> {
                    if (!homed) {
                        throw HandleException.notResponsible(handle);
                    }
                    return store.find(c, handle);
                })
                .flatMap(existing -> {
                    if (existing.isEmpty()) {
                        List<HandleValue> toStore = new ArrayList<>(incoming);
                        if (toStore.stream().noneMatch(v -> HandleValue.HS_ADMIN.equals(v.type()))) {
                            int free = 100;
                            while (indexTaken(toStore, free)) {
                                free++;
                            }
                            toStore.add(HandleAccess.defaultAdmin(caller, free));
                        }
                        return access.require(c, caller, handle, List.of(), EnumSet.of(AdminPermissions.ADD_HANDLE))
                                .flatMap(v -> store.replace(c, handle, name.prefix(), toStore, locations))
                                .map(v -> new Answer(overwrite ? 200 : 201, HandleResponse.ok(handle, null), 0));
                    }
                    HandleStore.Stored h = existing.get();
                    if (indices.isEmpty()) {
                        if (!overwrite) {
                            throw HandleException.alreadyExists(h.handle());
                        }
                        return access.require(c, caller, h.handle(), h.values(), HandleAccess.neededFor(h.values(), incoming))
                                .flatMap(v -> store.replace(c, h.handle(), name.prefix(), incoming, locations))
                                .map(v -> new Answer(200, HandleResponse.ok(h.handle(), null), 0));
                    }
                    if (!overwrite) {
                        for (HandleValue v : incoming) {
                            if (indexTaken(h.values(), v.index())) {
                                throw HandleException.valueExists(h.handle(), v.index());
                            }
                        }
                    }
                    List<HandleValue> after = new ArrayList<>(h.values().stream().filter(v -> !indices.contains(v.index())).toList());
                    after.addAll(incoming);
                    return access.require(c, caller, h.handle(), h.values(), HandleAccess.neededFor(h.values(), after))
                            .flatMap(v -> store.upsertValues(c, h.handle(), incoming, locations))
                            .map(v -> new Answer(200, HandleResponse.ok(h.handle(), null), 0));
                }))));
    }

    /** DELETE: the whole handle, or only the values at {@code indices}. */
    @WithSpan
    public Uni<Answer> delete(String handle, List<Integer> indices) {
        if (HandleName.parse(handle) == null) {
            throw HandleException.invalidHandle(handle);
        }
        return delete(access.caller(handle), handle, indices);
    }

    /** The same DELETE for a caller authenticated elsewhere (the native Handle protocol's challenge-response). */
    @WithSpan
    public Uni<Answer> delete(HandleAccess.Caller caller, String handle, List<Integer> indices) {
        if (HandleName.parse(handle) == null) {
            throw HandleException.invalidHandle(handle);
        }
        return delete(Uni.createFrom().item(caller), handle, indices);
    }

    private Uni<Answer> delete(Uni<HandleAccess.Caller> callerOf, String handle, List<Integer> indices) {
        return cache.afterWrite(handle, callerOf.flatMap(caller -> store.pool().withTransaction(c -> store.find(c, handle).flatMap(found -> {
            HandleStore.Stored h = found.orElseThrow(() -> HandleException.notFound(handle));
            if (indices.isEmpty()) {
                return access.require(c, caller, h.handle(), h.values(), EnumSet.of(AdminPermissions.DELETE_HANDLE))
                        .flatMap(v -> store.delete(c, h.handle()))
                        .map(n -> new Answer(200, HandleResponse.ok(h.handle(), null), 0));
            }
            // As CNRI's server: one index without a value fails the whole removal (200, which its REST API answers with 400).
            List<Integer> absent = indices.stream().filter(i -> !indexTaken(h.values(), i)).toList();
            if (!absent.isEmpty()) {
                throw HandleException.valuesNotFound(h.handle(), absent);
            }
            List<HandleValue> after = h.values().stream().filter(v -> !indices.contains(v.index())).toList();
            return access.require(c, caller, h.handle(), h.values(), HandleAccess.neededFor(h.values(), after))
                    .flatMap(v -> store.deleteValues(c, h.handle(), indices))
                    .map(n -> new Answer(200, HandleResponse.ok(h.handle(), null), 0));
        }))));
    }

    /**
     * Lists the handles of a prefix (LIST_HANDLES on the prefix, or handles:admin), answered as CNRI's
     * {@code ListCallback} does: {@code prefix} as asked, {@code totalCount} (a string), and with both {@code page}
     * and {@code pageSize} only that page ({@code pageSize=0}: none, the count only); without them every handle.
     * {@code asked} may name the prefix as {@code 0.NA/<prefix>}.
     */
    @WithSpan
    public Uni<HandleListing> list(String asked, Integer page, Integer pageSize) {
        String prefix = asked.regionMatches(true, 0, "0.NA/", 0, 5) ? asked.substring(5) : asked;
        String prefixHandle = HandleName.prefixHandle(prefix);
        boolean paged = page != null && pageSize != null;
        return access.caller(prefixHandle).flatMap(caller -> store.pool().withConnection(c -> store.prefixHomed(c, prefix).flatMap(homed -> {
            if (!homed) {
                throw HandleException.notResponsible(prefix + "/");
            }
            return access.require(c, caller, prefix + "/x", List.of(), EnumSet.of(AdminPermissions.LIST_HANDLES))
                    .flatMap(v -> store.count(c, prefix))
                    .flatMap(total -> (paged && pageSize == 0 ? Uni.createFrom().item(List.<String>of())
                            : store.list(c, prefix, paged ? page : 0, paged ? pageSize : (int) Math.max(1, Math.min(total, Integer.MAX_VALUE))))
                            .map(handles -> new HandleListing(1, asked, String.valueOf(total), paged ? page : null, paged ? pageSize : null, handles)));
        })));
    }

    /** Whether this server is responsible for a handle: its prefix is homed here ({@code 0.NA/<p>}: when p is). */
    private Uni<Boolean> homed(io.vertx.mutiny.sqlclient.SqlClient c, HandleName name) {
        return store.prefixHomed(c, "0.NA".equalsIgnoreCase(name.prefix()) ? name.suffix() : name.prefix());
    }

    /**
     * The locations of the 10320/loc values, parsed here once (linear in their size, which ValueRules bounds) and
     * stored with them, so that resolutions never parse them; every href must be a permitted redirect target.
     */
    private static Map<Integer, List<Locations.Location>> parsedLocations(String handle, List<HandleValue> values) {
        Map<Integer, List<Locations.Location>> out = new HashMap<>();
        for (HandleValue v : values) {
            if (HandleValue.LOC.equals(v.type()) && v.data().value().isTextual()) {
                List<Locations.Location> parsed = Locations.parse(v.data().value().asText());
                String problem = ValueRules.locations(v, parsed);
                if (problem != null) {
                    throw HandleException.invalidValue(handle, problem);
                }
                out.put(v.index(), parsed);
            }
        }
        return out;
    }

    private List<HandleValue> parseValues(String handle, String body, boolean checkHandle) {
        JsonNode root;
        try {
            root = json.readTree(body == null ? "" : body);
        } catch (JsonProcessingException e) {
            throw HandleException.invalidValue(handle, "the body is not JSON: " + e.getOriginalMessage());
        }
        // CNRI's servlet takes a list, {"values": [...]} (whose "handle", if any, must be the one written) or one value.
        JsonNode list = root == null ? null : root.isArray() ? root : root.get("values");
        if (list == null && root != null && root.has("index") && root.has("type") && root.has("data")) {
            list = json.createArrayNode().add(root);
        }
        if (list == null || !list.isArray()) {
            throw HandleException.invalidValue(handle, "expected {\"values\": [...]}");
        }
        if (checkHandle && root.path("handle").isTextual() && !root.path("handle").asText().equalsIgnoreCase(handle)) {
            throw new HandleException(4, 400, handle, "Protocol Error: Mismatched handle in PUT request");
        }
        List<HandleValue> out = new ArrayList<>();
        for (JsonNode v : list) {
            ValueFormats.canonicalize(v);
            try {
                HandleValue value = json.treeToValue(v, HandleValue.class);
                if (value == null) {
                    throw HandleException.invalidValue(handle, "a value is null");
                }
                out.add(asStored(value));
            } catch (JsonProcessingException e) {
                throw HandleException.invalidValue(handle, e.getOriginalMessage());
            }
        }
        return out;
    }

    /**
     * A value as it is stored, its permissions spelled out; an HS_SECKEY's key hashed the way CNRI hashes keys
     * ({@link SecretKeys}), and readable by admins only unless the value says otherwise (its hash opens it too).
     */
    private static HandleValue asStored(HandleValue v) {
        byte[] key = HandleValue.HS_SECKEY.equals(v.type()) ? ValueFormats.bytes(v.data()) : null;
        if (key == null) {
            return v.withDefaultPermissions();
        }
        return new HandleValue(v.index(), v.type(), new HandleValue.Data("string", TextNode.valueOf(SecretKeys.stored(key))),
                v.ttl(), v.timestamp(), v.permissions() == null ? SECRET_KEY_PERMISSIONS : v.permissions());
    }

    /** Admin read and write, no public read: an HS_SECKEY's permissions when it gives none. */
    static final String SECRET_KEY_PERMISSIONS = "1100";

    private static boolean indexTaken(List<HandleValue> values, int index) {
        return values.stream().anyMatch(v -> v.index() == index);
    }

    private static String mint(String requested) {
        String base = requested.endsWith("/") ? requested : requested.contains("/") ? requested : requested + "/";
        return base + UUID.randomUUID();
    }

}
