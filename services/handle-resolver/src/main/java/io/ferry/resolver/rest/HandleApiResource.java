package io.ferry.resolver.rest;

import io.ferry.resolver.api.PrefixInput;
import io.ferry.resolver.api.HandleListing;
import io.ferry.problem.ProblemException;
import io.ferry.resolver.model.HandleException;
import io.ferry.resolver.model.HandleName;
import io.ferry.resolver.handles.HandleService;
import io.ferry.resolver.handles.PrefixService;
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

    final HandleService handles;

    final PrefixService prefixes;

    @Inject
    public HandleApiResource(HandleService handles, PrefixService prefixes) {
        this.handles = handles;
        this.prefixes = prefixes;
    }

    @GET
    @Path("handles/{prefix}/{suffix: .+}")
    public Uni<Response> resolve(@PathParam("prefix") String prefix, @PathParam("suffix") String suffix,
                                 @QueryParam("type") List<String> types, @QueryParam("index") List<String> indices,
                                 @QueryParam("publicOnly") String publicOnly, @QueryParam("auth") String authoritative,
                                 @HeaderParam(CacheHeaders.AUTHORIZATION) String authorization) {
        return resolved(prefix + "/" + suffix, types, indices, publicOnly, authorization);
    }

    /**
     * A handle sent as one path segment, its slash escaped ({@code /api/handles/10.5072%2Fwalk1}, as clients that
     * quote the whole handle send it): CNRI's server takes the decoded path after {@code /api/handles/} as the handle,
     * so this is the same request as {@code /api/handles/10.5072/walk1}. Without a slash it names no handle (102).
     */
    @GET
    @Path("handles/{handle}")
    public Uni<Response> resolveOneSegment(@PathParam("handle") String handle,
                                           @QueryParam("type") List<String> types, @QueryParam("index") List<String> indices,
                                           @QueryParam("publicOnly") String publicOnly, @QueryParam("auth") String authoritative,
                                           @HeaderParam(CacheHeaders.AUTHORIZATION) String authorization) {
        return resolved(withSlash(handle), types, indices, publicOnly, authorization);
    }

    private Uni<Response> resolved(String handle, List<String> types, List<String> indices, String publicOnly, String authorization) {
        // Every answer here is authoritative (the store is the primary), so ?auth changes nothing.
        return handles.resolve(handle, types, indices(handle, indices), publicOnly == null ? null : HandleApiFormat.truthy(publicOnly))
                .map(a -> cached(Response.status(a.status()).entity(a.body()), a.ttlSeconds(), authorization != null));
    }

    @PUT
    @Path("handles/{prefix}/{suffix: .*}")
    @Consumes(MediaType.WILDCARD)
    public Uni<Response> put(@PathParam("prefix") String prefix, @PathParam("suffix") String suffix, String body,
                             @QueryParam("index") List<String> indices, @QueryParam("overwrite") @DefaultValue("true") boolean overwrite,
                             @QueryParam("mintNewSuffix") @DefaultValue("false") boolean mint) {
        return written(suffix.isEmpty() ? prefix : prefix + "/" + suffix, body, indices, overwrite, mint);
    }

    private Uni<Response> written(String handle, String body, List<String> indices, boolean overwrite, boolean mint) {
        if (handle.indexOf('/') < 0 && !mint) {
            throw HandleException.invalidHandle(handle);
        }
        boolean various = indices.size() == 1 && "various".equals(indices.get(0));
        return handles.put(handle, body, various ? List.of() : indices(handle, indices), various, overwrite, mint)
                .map(a -> Response.status(a.status()).entity(a.body()).build());
    }

    @PUT
    @Path("handles/{prefix}")
    @Consumes(MediaType.WILDCARD)
    public Uni<Response> mint(@PathParam("prefix") String prefix, String body, @QueryParam("index") List<String> indices,
                              @QueryParam("overwrite") @DefaultValue("true") boolean overwrite,
                              @QueryParam("mintNewSuffix") @DefaultValue("false") boolean mint) {
        if (prefix.indexOf('/') >= 0) {
            // the whole handle in one segment, its slash escaped (see resolveOneSegment)
            return written(prefix, body, indices, overwrite, mint);
        }
        if (!mint) {
            throw HandleException.invalidHandle(prefix);
        }
        return handles.put(prefix + "/", body, List.of(), true, true).map(a -> Response.status(a.status()).entity(a.body()).build());
    }

    @DELETE
    @Path("handles/{prefix}/{suffix: .+}")
    public Uni<Response> delete(@PathParam("prefix") String prefix, @PathParam("suffix") String suffix,
                                @QueryParam("index") List<String> indices) {
        return deleted(prefix + "/" + suffix, indices);
    }

    /** As {@link #delete}, the handle in one segment, its slash escaped (see {@link #resolveOneSegment}). */
    @DELETE
    @Path("handles/{handle}")
    public Uni<Response> deleteOneSegment(@PathParam("handle") String handle, @QueryParam("index") List<String> indices) {
        return deleted(withSlash(handle), indices);
    }

    private Uni<Response> deleted(String handle, List<String> indices) {
        return handles.delete(handle, indices(handle, indices)).map(a -> Response.status(a.status()).entity(a.body()).build());
    }

    /** A one-segment handle must have held an escaped slash: a prefix alone is no handle. */
    private static String withSlash(String handle) {
        if (handle.indexOf('/') < 0) {
            throw HandleException.invalidHandle(handle);
        }
        return handle;
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
