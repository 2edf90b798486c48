package io.ferry.resolver.rest;

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

/**
 * {@link ProxyResource} for a handle sent as one path segment with its slash escaped ({@code GET /10.5072%2Fx}, as
 * links that quote the whole handle carry it): doi.org and hdl.handle.net decode the path, so it is the same handle
 * as {@code /10.5072/x}. The template is matched against the path as sent, hence the {@code %2F} in it.
 */
@Path("/{handle: [0-9][0-9A-Za-z]*(\\.[0-9A-Za-z]+)*%2[Ff][^/]+}")
public class EscapedProxyResource {

    final ProxyResolver proxy;

    @Inject
    public EscapedProxyResource(ProxyResolver proxy) {
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
    public Uni<Response> resolve(@PathParam("handle") @Parameter(description = "The whole handle, its slash escaped",
                                         schema = @Schema(type = SchemaType.STRING, pattern = ApiDocs.PROXY_HANDLE)) String handle, @QueryParam("noredirect") String noRedirect,
                                 @QueryParam("urlappend") @Parameter(schema = @Schema(type = SchemaType.STRING, maxLength = RedirectTarget.MAX_APPEND,
                                         pattern = ApiDocs.URL_APPEND)) String urlAppend, @QueryParam("locatt") String locatt,
                                 @HeaderParam("Accept") String accept, @jakarta.ws.rs.core.Context jakarta.ws.rs.core.UriInfo uri) {
        return ProxyResource.answer(proxy, handle, noRedirect, urlAppend, locatt, accept, uri);
    }
}
