package io.ferry.resolver.rest;

import io.ferry.resolver.resolution.ProxyDecisions;
import io.ferry.resolver.api.HandleResponse;
import io.ferry.resolver.model.RedirectTarget;
import io.ferry.resolver.proxy.ProxyResolver;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
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
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

import java.net.URI;

/**
 * Anonymous proxy resolution: {@code GET /{prefix}/{suffix}} redirects like hdl.handle.net / doi.org;
 * {@code ?noredirect} shows the values (HTML, or JSON with {@code Accept: application/json}).
 */
@Path("/{prefix: [0-9][0-9A-Za-z]*(\\.[0-9A-Za-z]+)*}/{suffix: .+}")
public class ProxyResource {

    final ProxyResolver proxy;

    @Inject
    public ProxyResource(ProxyResolver proxy) {
        this.proxy = proxy;
    }

    @GET
    @Produces({MediaType.TEXT_HTML, MediaType.APPLICATION_JSON})
    @APIResponse(responseCode = "200", description = "With noredirect (or no URL to redirect to): the values, as a page or as Handle.net's JSON",
            content = {@Content(mediaType = MediaType.TEXT_HTML, schema = @Schema(type = SchemaType.STRING)),
                    @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = HandleResponse.class))})
    @APIResponse(responseCode = "301", description = "To the handle an HS_ALIAS names")
    @APIResponse(responseCode = "302", description = "To the location chosen (10320/loc by locatt, else the first URL value)")
    @APIResponse(responseCode = "400", ref = "HandleErrorOrProblem")
    @APIResponse(responseCode = "404", ref = "ProxyNotFound")
    @APIResponse(responseCode = "410", ref = "HandleErrorOrPage")
    public Uni<Response> resolve(@PathParam("prefix") @Parameter(schema = @Schema(type = SchemaType.STRING, pattern = ApiDocs.PROXY_PREFIX)) String prefix,
                                 @PathParam("suffix") @Parameter(schema = @Schema(type = SchemaType.STRING, pattern = ApiDocs.SUFFIX)) String suffix,
                                 @QueryParam("noredirect") String noRedirect, @QueryParam("urlappend") @Parameter(schema = @Schema(type = SchemaType.STRING, maxLength = RedirectTarget.MAX_APPEND,
                                         pattern = ApiDocs.URL_APPEND)) String urlAppend,
                                 @QueryParam("locatt") String locatt, @HeaderParam("Accept") String accept,
                                 @jakarta.ws.rs.core.Context jakarta.ws.rs.core.UriInfo uri) {
        return answer(proxy, prefix + "/" + suffix, noRedirect, urlAppend, locatt, accept, uri);
    }

    /** The proxy's answer for {@code handle}: a redirect, the values (HTML or JSON), or why there is none. */
    static Uni<Response> answer(ProxyResolver proxy, String handle, String noRedirect, String urlAppend, String locatt, String accept,
                                jakarta.ws.rs.core.UriInfo uri) {
        boolean json = accept != null && accept.contains(MediaType.APPLICATION_JSON) && !accept.contains(MediaType.TEXT_HTML);
        boolean values = noRedirect != null || uri.getQueryParameters().containsKey("noredirect");
        return proxy.decide(handle, values, urlAppend, locatt).map(d -> switch (d.kind()) {
            case REDIRECT -> HandleApiResource.cached(Response.status(302).location(URI.create(d.location())), d.ttlSeconds());
            case ALIAS -> HandleApiResource.cached(Response.status(301).location(URI.create(d.location())), d.ttlSeconds());
            case VALUES, NO_URL -> json
                    ? HandleApiResource.cached(Response.ok(HandleResponse.ok(d.handle(), d.values())).type(MediaType.APPLICATION_JSON), d.ttlSeconds())
                    : HandleApiResource.cached(Response.ok(ProxyPages.values(d)).type(MediaType.TEXT_HTML), d.ttlSeconds());
            case GONE -> Response.status(410).type(json ? MediaType.APPLICATION_JSON : MediaType.TEXT_HTML)
                    .entity(json ? HandleResponse.error(1, 410, d.handle(), "Gone: the object was deleted" + (d.reason() == null ? "" : " (" + d.reason() + ")"))
                            : ProxyPages.gone(d)).build();
            case NOT_FOUND, NOT_RESPONSIBLE -> Response.status(404).type(json ? MediaType.APPLICATION_JSON : MediaType.TEXT_HTML)
                    .entity(json ? HandleResponse.error(d.kind() == ProxyDecisions.Kind.NOT_FOUND ? 100 : 301, 404, d.handle(),
                            d.kind() == ProxyDecisions.Kind.NOT_FOUND ? "Handle Not Found" : "Server Not Responsible For Handle")
                            : ProxyPages.notFound(d)).build();
        });
    }
}
