package io.ferry.scheduler.jobs;

import io.ferry.problem.ProblemMappers;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.impl.ConnectionBase;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import java.io.IOException;

/**
 * A client that hangs up before its answer is written (an event stream dropped while it starts, a reset) is not a
 * failure of the service: it is logged at debug, where a flood of dropped connections cannot bury real errors, and
 * counted as 499 (nginx's "client closed request"), not as a 5xx. Other I/O failures are unexpected failures as before.
 */
public class ClientGoneMapper {

    private static final Logger LOG = Logger.getLogger(ClientGoneMapper.class);
    private final ProblemMappers problems = new ProblemMappers();

    @ServerExceptionMapper
    public Response io(IOException e, HttpServerRequest request, UriInfo uri) {
        return connectionGone(request) ? gone(e, request, uri) : problems.unexpected(e, uri);
    }

    @ServerExceptionMapper
    public Response closed(HttpClosedException e, HttpServerRequest request, UriInfo uri) {
        // also thrown by a REST-client call whose peer closed: that is our failure, not this client leaving
        return connectionGone(request) ? gone(e, request, uri) : problems.unexpected(e, uri);
    }

    /**
     * Whether this request's own connection is gone. When a write fails because the peer reset the connection,
     * the socket is already closed but Vert.x has not marked the response closed yet: the channel tells.
     */
    private static boolean connectionGone(HttpServerRequest request) {
        return request.response().closed()
                || request.connection() instanceof ConnectionBase c && !c.channel().isActive();
    }

    private static Response gone(Exception e, HttpServerRequest request, UriInfo uri) {
        LOG.debugf("%s %s: the client went away (%s)", request.method(), uri.getPath(), e.toString());
        // Nobody reads this answer any more.
        return Response.status(499).build();
    }
}
