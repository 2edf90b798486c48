package io.ferry.scheduler.rest;

import io.ferry.problem.ProblemMappers;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;

/**
 * A client that hangs up before its answer is written (an event stream dropped while it starts, a reset) is not a
 * failure of the service: it is logged at debug, where a flood of dropped connections cannot bury real errors.
 * Other I/O failures are unexpected failures as before.
 */
public class ClientGoneMapper {

    private static final Logger LOG = Logger.getLogger(ClientGoneMapper.class);
    private final ProblemMappers problems = new ProblemMappers();

    @ServerExceptionMapper
    public Response io(IOException e, HttpServerRequest request, UriInfo uri) {
        return hungUp(e, request) ? gone(e, request, uri) : problems.unexpected(e, uri);
    }

    @ServerExceptionMapper
    public Response closed(HttpClosedException e, HttpServerRequest request, UriInfo uri) {
        return gone(e, request, uri);
    }

    /** The write failed because the peer closed or reset the connection (the socket may not know it is closed yet). */
    private static boolean hungUp(IOException e, HttpServerRequest request) {
        String message = e.getMessage() == null ? "" : e.getMessage();
        return request.response().closed() || e instanceof ClosedChannelException
                || message.contains("Connection reset") || message.contains("Broken pipe");
    }

    private static Response gone(Exception e, HttpServerRequest request, UriInfo uri) {
        LOG.debugf("%s %s: the client went away (%s)", request.method(), uri.getPath(), e.toString());
        // Nobody reads this answer any more.
        return Response.status(499).build();
    }
}
