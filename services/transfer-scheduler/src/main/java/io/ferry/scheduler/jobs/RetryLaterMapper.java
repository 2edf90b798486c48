package io.ferry.scheduler.jobs;

import io.ferry.problem.Problem;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** A problem worth retrying later (429 over a limit): the problem document, and when to retry in {@code Retry-After}. */
public class RetryLaterMapper {

    @ServerExceptionMapper
    public Response retryLater(RetryLaterException e, UriInfo uri) {
        return Response.status(e.problem().status())
                .header(HttpHeaders.RETRY_AFTER, Long.toString(e.retryAfterSeconds()))
                .type(Problem.MEDIA_TYPE)
                .entity(e.problem().atInstance(uri.getPath()))
                .build();
    }
}
