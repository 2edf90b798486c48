package io.ferry.resolver.rest;

import io.ferry.problem.ProblemException;
import io.ferry.resolver.model.HandleException;
import io.ferry.resolver.model.HandleName;
import io.ferry.resolver.service.HandleService;
import io.ferry.resolver.service.PrefixService;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.time.Instant;
import java.util.List;

/** Handle.net's JSON REST API: {@code /api/handles} and {@code /api/prefixes}. */
@Path("/api")
@Produces(MediaType.APPLICATION_JSON)
public class HandleApiResource {

    public record PrefixInput(List<String> admins) {
    }

    @Inject
    HandleService handles;

    @Inject
    PrefixService prefixes;

    @GET
    @Path("handles/{prefix}/{suffix: .+}")
    public Uni<Response> resolve(@PathParam("prefix") String prefix, @PathParam("suffix") String suffix,
                                 @QueryParam("type") List<String> types, @QueryParam("index") List<String> indices,
                                 @QueryParam("publicOnly") String publicOnly, @QueryParam("auth") String authoritative,
                                 @HeaderParam(CacheHeaders.AUTHORIZATION) String authorization) {
        // Every answer here is authoritative (the store is the primary), so ?auth changes nothing.
        String handle = prefix + "/" + suffix;
        return handles.resolve(handle, types, indices(handle, indices), publicOnly == null ? null : HandleApiFormat.truthy(publicOnly))
                .map(a -> cached(Response.status(a.status()).entity(a.body()), a.ttlSeconds(), authorization != null));
    }

    @PUT
    @Path("handles/{prefix}/{suffix: .*}")
    @Consumes(MediaType.WILDCARD)
    public Uni<Response> put(@PathParam("prefix") String prefix, @PathParam("suffix") String suffix, String body,
                             @QueryParam("index") List<String> indices, @QueryParam("overwrite") @DefaultValue("true") boolean overwrite,
                             @QueryParam("mintNewSuffix") @DefaultValue("false") boolean mint) {
        String handle = suffix.isEmpty() ? prefix : prefix + "/" + suffix;
        if (suffix.isEmpty() && !mint) {
            throw HandleException.invalidHandle(handle);
        }
        boolean various = indices.size() == 1 && "various".equals(indices.get(0));
        return handles.put(handle, body, various ? List.of() : indices(handle, indices), various, overwrite, mint)
                .map(a -> Response.status(a.status()).entity(a.body()).build());
    }

    @PUT
    @Path("handles/{prefix}")
    @Consumes(MediaType.WILDCARD)
    public Uni<Response> mint(@PathParam("prefix") String prefix, String body,
                              @QueryParam("mintNewSuffix") @DefaultValue("false") boolean mint) {
        if (!mint) {
            throw HandleException.invalidHandle(prefix);
        }
        return handles.put(prefix + "/", body, List.of(), true, true).map(a -> Response.status(a.status()).entity(a.body()).build());
    }

    @DELETE
    @Path("handles/{prefix}/{suffix: .+}")
    public Uni<Response> delete(@PathParam("prefix") String prefix, @PathParam("suffix") String suffix,
                                @QueryParam("index") List<String> indices) {
        String handle = prefix + "/" + suffix;
        return handles.delete(handle, indices(handle, indices)).map(a -> Response.status(a.status()).entity(a.body()).build());
    }

    /**
     * Lists a prefix's handles (CNRI: {@code prefix} as {@code 10.5072} or {@code 0.NA/10.5072}); {@code page} and
     * {@code pageSize} together select a page, {@code pageSize=0} only counts, without them every handle is listed.
     */
    @GET
    @Path("handles")
    public Uni<HandleListing> list(@QueryParam("prefix") String prefix, @QueryParam("page") Integer page,
                                   @QueryParam("pageSize") Integer pageSize) {
        String bare = prefix == null ? null : prefix.regionMatches(true, 0, "0.NA/", 0, 5) ? prefix.substring(5) : prefix;
        if (bare == null || bare.isBlank() || HandleName.parse(bare + "/x") == null) {
            throw ProblemException.badRequest("prefix", "the prefix whose handles to list is required (?prefix=10.5072)");
        }
        if (page != null && page < 0) {
            throw ProblemException.badRequest("page", "must be 0 or more");
        }
        if (pageSize != null && pageSize < 0) {
            throw ProblemException.badRequest("pageSize", "must be 0 or more");
        }
        return handles.list(prefix, page, pageSize);
    }

    /** Value indices from the query; one that is not a number is Handle.net's protocol error (4), 400. */
    static List<Integer> indices(String handle, List<String> given) {
        List<Integer> out = new java.util.ArrayList<>(given.size());
        for (String i : given) {
            try {
                out.add(Integer.parseInt(i.trim()));
            } catch (NumberFormatException e) {
                throw new HandleException(4, 400, handle, "Protocol Error: index '" + i + "' is not a number");
            }
        }
        return out;
    }

    @GET
    @Path("prefixes")
    public Uni<Response> prefixes() {
        return prefixes.list().map(l -> Response.ok(java.util.Map.of("responseCode", 1, "prefixes", l)).build());
    }

    @POST
    @Path("prefixes/{prefix}")
    @Consumes(MediaType.WILDCARD)
    public Uni<Response> home(@PathParam("prefix") String prefix, PrefixInput input) {
        return prefixes.home(prefix, input == null || input.admins() == null ? List.of() : input.admins())
                .map(v -> Response.ok(java.util.Map.of("responseCode", 1, "prefix", prefix)).build());
    }

    @DELETE
    @Path("prefixes/{prefix}")
    public Uni<Response> unhome(@PathParam("prefix") String prefix) {
        return prefixes.unhome(prefix).map(v -> Response.ok(java.util.Map.of("responseCode", 1, "prefix", prefix)).build());
    }

    /** Caches public answers no longer than the smallest TTL of the values they carry. */
    static Response cached(Response.ResponseBuilder r, long ttlSeconds) {
        return cached(r, ttlSeconds, false);
    }

    /** As {@link #cached(Response.ResponseBuilder, long)}; an answer to a caller with a token only in its own cache. */
    static Response cached(Response.ResponseBuilder r, long ttlSeconds, boolean withToken) {
        return r.header(CacheHeaders.CACHE_CONTROL, withToken ? CacheHeaders.privateCacheControl(ttlSeconds) : CacheHeaders.cacheControl(ttlSeconds))
                .header(CacheHeaders.EXPIRES, CacheHeaders.expires(Instant.now().getEpochSecond(), ttlSeconds))
                .header(CacheHeaders.VARY, CacheHeaders.AUTHORIZATION).build();
    }
}
