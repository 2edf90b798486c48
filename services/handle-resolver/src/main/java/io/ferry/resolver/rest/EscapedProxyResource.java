package io.ferry.resolver.rest;

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
    public Uni<Response> resolve(@PathParam("handle") String handle, @QueryParam("noredirect") String noRedirect,
                                 @QueryParam("urlappend") String urlAppend, @QueryParam("locatt") String locatt,
                                 @HeaderParam("Accept") String accept, @jakarta.ws.rs.core.Context jakarta.ws.rs.core.UriInfo uri) {
        return ProxyResource.answer(proxy, handle, noRedirect, urlAppend, locatt, accept, uri);
    }
}
