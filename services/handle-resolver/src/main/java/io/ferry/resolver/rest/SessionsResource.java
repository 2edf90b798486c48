package io.ferry.resolver.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ferry.resolver.model.HandleAuthorization;
import io.ferry.resolver.model.HandleException;
import io.ferry.resolver.authentication.HandleSessions;
import io.ferry.resolver.authentication.SecretKeyAuthentication;
import io.ferry.resolver.authentication.SessionAuthentication;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import io.ferry.resolver.api.SessionResponse;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

import java.net.URI;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/**
 * CNRI's {@code /api/sessions}: POST opens a session and answers its id and server nonce (201, Location
 * {@code /api/sessions/this}); PUT (or POST) {@code /api/sessions/this} with {@code Authorization: Handle
 * sessionId=…, id=…, type=…, alg=…, cnonce=…, signature=…} (or the same fields as query parameters or a JSON body)
 * proves an identity for it, 401 with the session and an {@code error} when the answer does not verify; GET shows
 * it; DELETE ends it (204). HTTP Basic authenticates a session too. Any other session path is 403, as in CNRI.
 */
@Path("/api/sessions")
@Produces(MediaType.APPLICATION_JSON)
public class SessionsResource {

    private static final String THIS = "this";
    /** Handle response codes (CNRI's AbstractMessage) of the session failures. */
    private static final int RC_ERROR = 2;
    private static final int RC_SERVER_TOO_BUSY = 3;
    private static final int RC_SESSION_FAILED = 501;

    final HandleSessions sessions;

    final SessionAuthentication authentication;

    final SecretKeyAuthentication secretKeys;

    final ObjectMapper json;

    @Inject
    public SessionsResource(
            HandleSessions sessions,
            SessionAuthentication authentication,
            SecretKeyAuthentication secretKeys,
            ObjectMapper json) {
        this.sessions = sessions;
        this.authentication = authentication;
        this.secretKeys = secretKeys;
        this.json = json;
    }

    @POST
    @Consumes(MediaType.WILDCARD)
    @APIResponse(responseCode = "201", description = "The new session: its id and nonce (and, with credentials, whether they verified)",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = SessionResponse.class)))
    @APIResponse(responseCode = "400", ref = "HandleErrorOrProblem")
    @APIResponse(responseCode = "503", ref = "HandleError")
    public Uni<Response> open(@HeaderParam(CacheHeaders.AUTHORIZATION) String authorization, @Context UriInfo uri, @RequestBody(ref = "NewSessionFields") String body) {
        HandleAuthorization auth = fields(authorization, uri, body);
        if (auth.sessionId() != null) {
            return Uni.createFrom().failure(new HandleException(RC_ERROR, 400, null, "A new session cannot name a session"));
        }
        HandleSessions.Session session = sessions.open();
        if (session == null) {
            return Uni.createFrom().failure(new HandleException(RC_SERVER_TOO_BUSY, 503, null, "Too many open sessions"));
        }
        // As in CNRI, the new session is answered with 201 even when credentials sent along with it fail.
        return authenticate(session, auth, authorization)
                .map(r -> Response.fromResponse(r).status(201).location(URI.create("/api/sessions/" + THIS)).build());
    }

    @GET
    @Path("{which}")
    @APIResponse(responseCode = "200", description = "The session", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = SessionResponse.class)))
    @APIResponse(responseCode = "401", ref = "SessionError")
    @APIResponse(responseCode = "403", ref = "HandleError")
    public Uni<Response> show(@PathParam("which") @Parameter(description = "The only session path is this", schema = @Schema(type = SchemaType.STRING, enumeration = THIS)) String which, @HeaderParam(CacheHeaders.AUTHORIZATION) String authorization,
                              @Context UriInfo uri) {
        return answer(which, authorization, uri, null);
    }

    @PUT
    @Path("{which}")
    @Consumes(MediaType.WILDCARD)
    @APIResponse(responseCode = "200", description = "The session", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = SessionResponse.class)))
    @APIResponse(responseCode = "400", ref = "HandleErrorOrProblem")
    @APIResponse(responseCode = "401", ref = "SessionError")
    @APIResponse(responseCode = "403", ref = "HandleError")
    public Uni<Response> prove(@PathParam("which") @Parameter(description = "The only session path is this", schema = @Schema(type = SchemaType.STRING, enumeration = THIS)) String which, @HeaderParam(CacheHeaders.AUTHORIZATION) String authorization,
                               @Context UriInfo uri, @RequestBody(ref = "SessionFields") String body) {
        return answer(which, authorization, uri, body);
    }

    @POST
    @Path("{which}")
    @Consumes(MediaType.WILDCARD)
    @APIResponse(responseCode = "200", description = "The session", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = SessionResponse.class)))
    @APIResponse(responseCode = "400", ref = "HandleErrorOrProblem")
    @APIResponse(responseCode = "401", ref = "SessionError")
    @APIResponse(responseCode = "403", ref = "HandleError")
    public Uni<Response> provePost(@PathParam("which") @Parameter(description = "The only session path is this", schema = @Schema(type = SchemaType.STRING, enumeration = THIS)) String which, @HeaderParam(CacheHeaders.AUTHORIZATION) String authorization,
                                   @Context UriInfo uri, @RequestBody(ref = "SessionFields") String body) {
        return answer(which, authorization, uri, body);
    }

    @DELETE
    @Path("{which}")
    @APIResponse(responseCode = "204", description = "The session ended")
    @APIResponse(responseCode = "403", ref = "HandleError")
    public Response close(@PathParam("which") @Parameter(description = "The only session path is this", schema = @Schema(type = SchemaType.STRING, enumeration = THIS)) String which, @HeaderParam(CacheHeaders.AUTHORIZATION) String authorization,
                          @Context UriInfo uri) {
        HandleAuthorization auth = fields(authorization, uri, null);
        if (!THIS.equals(which)) {
            throw notThisSession();
        }
        if (!sessions.close(auth.sessionId())) {
            throw noSuchSession();
        }
        return Response.noContent().build();
    }

    private Uni<Response> answer(String which, String authorization, UriInfo uri, String body) {
        if (!THIS.equals(which)) {
            return Uni.createFrom().failure(notThisSession());
        }
        HandleAuthorization auth = fields(authorization, uri, body);
        HandleSessions.Session session = sessions.find(auth.sessionId());
        boolean needsSession = auth.sessionId() != null || auth.authenticating() || auth.get("cnonce") != null;
        if (session == null && needsSession) {
            return Uni.createFrom().failure(noSuchSession());
        }
        return authenticate(session, auth, authorization);
    }

    /**
     * Runs the credentials of a sessions request against {@code session} (null: a sessionless Basic check): 200 with
     * the session, or 401 with its {@code error} when they were given and failed.
     */
    private Uni<Response> authenticate(HandleSessions.Session session, HandleAuthorization auth, String authorization) {
        Uni<HandleSessions.Session> proven;
        if (SecretKeyAuthentication.isBasic(authorization)) {
            proven = Uni.createFrom().deferred(() -> secretKeys.authenticate(authorization, null))
                    .map(caller -> session == null ? new HandleSessions.Session(null, null, caller, authorization)
                            : sessions.authenticated(session, caller, authorization));
        } else if (auth.authenticating() && session != null) {
            String provenBy = authorization == null ? auth.fields().toString() : authorization;
            proven = Uni.createFrom().deferred(() -> authentication.prove(session, auth, provenBy, null));
        } else {
            return Uni.createFrom().item(Response.ok(SessionResponses.of(session, null)).build());
        }
        return proven.map(s -> Response.ok(s.id() == null ? SessionResponses.proven(s.caller().subject()) : SessionResponses.of(s, null)).build())
                .onFailure(HandleException.class).recoverWithItem(e -> Response.status(401)
                        .entity(SessionResponses.of(session, e.getMessage())).build());
    }

    // CNRI answers these 403s with no body; Ferry adds Handle.net's error shape so that clients and scripts can tell why.
    private static HandleException notThisSession() {
        return new HandleException(RC_ERROR, 403, null, "The only session path is /api/sessions/" + THIS);
    }

    private static HandleException noSuchSession() {
        return new HandleException(RC_SESSION_FAILED, 403, null, "No such session: it ended, expired or never existed");
    }

    /** The Handle header's fields, then the query's, then a JSON body's (CNRI reads all three); 400 for a bad body. */
    private HandleAuthorization fields(String authorization, UriInfo uri, String body) {
        HandleAuthorization header = HandleAuthorization.parse(authorization);
        Map<String, String> others = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        uri.getQueryParameters().forEach((k, v) -> others.putIfAbsent(k, v.isEmpty() || v.get(0).isEmpty() ? "true" : v.get(0)));
        if (body != null && !body.isBlank()) {
            try {
                JsonNode node = json.readTree(body);
                if (node.isObject()) {
                    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                        Map.Entry<String, JsonNode> field = it.next();
                        others.putIfAbsent(field.getKey(), field.getValue().isValueNode() ? field.getValue().asText() : field.getValue().toString());
                    }
                }
            } catch (JsonProcessingException e) {
                throw new HandleException(RC_ERROR, 400, null, "The body is not JSON");
            }
        }
        return (header == null ? HandleAuthorization.empty() : header).withDefaults(others);
    }
}
