package io.ferry.resolver.rest;

import io.ferry.resolver.api.HandleValues;
import io.ferry.resolver.api.PrefixAnswer;
import io.ferry.resolver.api.PrefixInput;
import io.ferry.resolver.api.PrefixList;
import io.ferry.resolver.api.HandleListing;
import io.ferry.problem.ProblemException;
import io.ferry.resolver.model.HandleException;
import io.ferry.resolver.model.HandleName;
import io.ferry.resolver.handles.HandleService;
import io.ferry.resolver.handles.PrefixService;
import io.ferry.resolver.api.HandleResponse;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
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
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

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
    @APIResponse(responseCode = "200", description = "The handle's values (responseCode 1); responseCode 200 when none is of the types or at the indices asked for",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = HandleResponse.class)))
    @APIResponse(responseCode = "400", ref = "HandleErrorOrProblem")
    @APIResponse(responseCode = "401", ref = "HandleError")
    @APIResponse(responseCode = "403", ref = "HandleError")
    @APIResponse(responseCode = "404", ref = "HandleError")
    public Uni<Response> resolve(@PathParam("prefix") @Parameter(schema = @Schema(type = SchemaType.STRING, pattern = ApiDocs.PREFIX)) String prefix,
                                 @PathParam("suffix") @Parameter(schema = @Schema(type = SchemaType.STRING, pattern = ApiDocs.SUFFIX)) String suffix,
                                 @QueryParam("type") List<String> types, @QueryParam("index") @Parameter(schema = @Schema(type = SchemaType.ARRAY, implementation = Integer.class)) List<String> indices,
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
    @APIResponse(responseCode = "200", description = "As GET /api/handles/{prefix}/{suffix}",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = HandleResponse.class)))
    @APIResponse(responseCode = "400", ref = "HandleErrorOrProblem")
    @APIResponse(responseCode = "401", ref = "HandleError")
    @APIResponse(responseCode = "403", ref = "HandleError")
    @APIResponse(responseCode = "404", ref = "HandleError")
    public Uni<Response> resolveOneSegment(@PathParam("handle") @Parameter(description = "The whole handle, its slash escaped",
                                                   schema = @Schema(type = SchemaType.STRING, pattern = ApiDocs.HANDLE)) String handle,
                                           @QueryParam("type") List<String> types, @QueryParam("index") @Parameter(schema = @Schema(type = SchemaType.ARRAY, implementation = Integer.class)) List<String> indices,
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
    @APIResponse(responseCode = "200", description = "Written (responseCode 1, the handle written)",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = HandleResponse.class)))
    @APIResponse(responseCode = "201", description = "Created (overwrite=false; responseCode 1, the handle written)",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = HandleResponse.class)))
    @APIResponse(responseCode = "400", ref = "HandleErrorOrProblem")
    @APIResponse(responseCode = "401", ref = "HandleError")
    @APIResponse(responseCode = "403", ref = "HandleError")
    @APIResponse(responseCode = "409", ref = "HandleError")
    public Uni<Response> put(@PathParam("prefix") @Parameter(schema = @Schema(type = SchemaType.STRING, pattern = ApiDocs.PREFIX)) String prefix,
                             @PathParam("suffix") @Parameter(schema = @Schema(type = SchemaType.STRING, pattern = ApiDocs.SUFFIX)) String suffix,
                             @RequestBody(required = true, description = "The values: {\"values\": [...]} (its \"handle\", if any, the one written), a list of values, or one value",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = HandleValues.class))) String body,
                             @QueryParam("index") @Parameter(description = "Only these values are added or modified; various: every value of the body",
                                     schema = @Schema(type = SchemaType.ARRAY, implementation = ApiDocs.ValueIndex.class)) List<String> indices, @QueryParam("overwrite") @DefaultValue("true") boolean overwrite,
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
    @APIResponse(responseCode = "200", description = "Written (responseCode 1, the handle written)",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = HandleResponse.class)))
    @APIResponse(responseCode = "201", description = "Created (overwrite=false; responseCode 1, the handle written)",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = HandleResponse.class)))
    @APIResponse(responseCode = "400", ref = "HandleErrorOrProblem")
    @APIResponse(responseCode = "401", ref = "HandleError")
    @APIResponse(responseCode = "403", ref = "HandleError")
    @APIResponse(responseCode = "409", ref = "HandleError")
    public Uni<Response> mint(@PathParam("prefix") @Parameter(description = "A prefix (with mintNewSuffix=true), or the whole handle, its slash escaped",
                                      schema = @Schema(type = SchemaType.STRING, pattern = ApiDocs.PREFIX_OR_HANDLE)) String prefix,
                              @RequestBody(required = true, description = "The values: {\"values\": [...]} (its \"handle\", if any, the one written), a list of values, or one value",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = HandleValues.class))) String body,
                              @QueryParam("index") @Parameter(description = "Only these values are added or modified; various: every value of the body",
                                     schema = @Schema(type = SchemaType.ARRAY, implementation = ApiDocs.ValueIndex.class)) List<String> indices,
                              @QueryParam("overwrite") @DefaultValue("true") boolean overwrite,
                              @QueryParam("mintNewSuffix") @DefaultValue("false") @Parameter(description = "Write under a new unique suffix; required with a prefix alone")
                              boolean mint) {
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
    @APIResponse(responseCode = "200", description = "Deleted (responseCode 1)",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = HandleResponse.class)))
    @APIResponse(responseCode = "400", ref = "HandleErrorOrProblem")
    @APIResponse(responseCode = "401", ref = "HandleError")
    @APIResponse(responseCode = "403", ref = "HandleError")
    @APIResponse(responseCode = "404", ref = "HandleError")
    public Uni<Response> delete(@PathParam("prefix") @Parameter(schema = @Schema(type = SchemaType.STRING, pattern = ApiDocs.PREFIX)) String prefix,
                                @PathParam("suffix") @Parameter(schema = @Schema(type = SchemaType.STRING, pattern = ApiDocs.SUFFIX)) String suffix,
                                @QueryParam("index") @Parameter(schema = @Schema(type = SchemaType.ARRAY, implementation = Integer.class)) List<String> indices) {
        return deleted(prefix + "/" + suffix, indices);
    }

    /** As {@link #delete}, the handle in one segment, its slash escaped (see {@link #resolveOneSegment}). */
    @DELETE
    @Path("handles/{handle}")
    @APIResponse(responseCode = "200", description = "Deleted (responseCode 1)",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = HandleResponse.class)))
    @APIResponse(responseCode = "400", ref = "HandleErrorOrProblem")
    @APIResponse(responseCode = "401", ref = "HandleError")
    @APIResponse(responseCode = "403", ref = "HandleError")
    @APIResponse(responseCode = "404", ref = "HandleError")
    public Uni<Response> deleteOneSegment(@PathParam("handle") @Parameter(description = "The whole handle, its slash escaped",
                                                  schema = @Schema(type = SchemaType.STRING, pattern = ApiDocs.HANDLE)) String handle,
                                          @QueryParam("index") @Parameter(schema = @Schema(type = SchemaType.ARRAY, implementation = Integer.class)) List<String> indices) {
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
    @APIResponse(responseCode = "200", description = "The prefix's handles",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = HandleListing.class)))
    @APIResponse(responseCode = "400", ref = "HandleErrorOrProblem")
    @APIResponse(responseCode = "401", ref = "HandleError")
    @APIResponse(responseCode = "403", ref = "HandleError")
    public Uni<HandleListing> list(@QueryParam("prefix") @Parameter(required = true, description = "10.5072, or 0.NA/10.5072",
                                           schema = @Schema(type = SchemaType.STRING, pattern = ApiDocs.LISTED_PREFIX)) String prefix,
                                   @QueryParam("page") @Parameter(schema = @Schema(type = SchemaType.INTEGER, format = "int32", minimum = "0")) Integer page,
                                   @QueryParam("pageSize") @Parameter(schema = @Schema(type = SchemaType.INTEGER, format = "int32", minimum = "0")) Integer pageSize) {
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
    @APIResponse(responseCode = "200", description = "The prefixes homed here (responseCode 1, prefixes)",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = PrefixList.class)))
    public Uni<Response> prefixes() {
        return prefixes.list().map(l -> Response.ok(new PrefixList(1, l)).build());
    }

    @POST
    @Path("prefixes/{prefix}")
    @Consumes(MediaType.WILDCARD)
    @APIResponse(responseCode = "200", description = "Done (responseCode 1, the prefix)",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = PrefixAnswer.class)))
    @APIResponse(responseCode = "400", ref = "HandleErrorOrProblem")
    @APIResponse(responseCode = "401", ref = "HandleError")
    @APIResponse(responseCode = "403", ref = "HandleError")
    public Uni<Response> home(@PathParam("prefix") @Parameter(schema = @Schema(type = SchemaType.STRING, pattern = ApiDocs.PREFIX, maxLength = 100)) String prefix,
                              @RequestBody(required = false, content = @Content(mediaType = MediaType.APPLICATION_JSON,
                                      schema = @Schema(implementation = PrefixInput.class))) @Valid PrefixInput input) {
        return prefixes.home(prefix, input == null || input.admins() == null ? List.of() : input.admins())
                .map(v -> Response.ok(new PrefixAnswer(1, prefix)).build());
    }

    @DELETE
    @Path("prefixes/{prefix}")
    @APIResponse(responseCode = "200", description = "Done (responseCode 1, the prefix)",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = PrefixAnswer.class)))
    @APIResponse(responseCode = "400", ref = "HandleErrorOrProblem")
    @APIResponse(responseCode = "401", ref = "HandleError")
    @APIResponse(responseCode = "403", ref = "HandleError")
    public Uni<Response> unhome(@PathParam("prefix") @Parameter(schema = @Schema(type = SchemaType.STRING, pattern = ApiDocs.PREFIX)) String prefix) {
        return prefixes.unhome(prefix).map(v -> Response.ok(new PrefixAnswer(1, prefix)).build());
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
