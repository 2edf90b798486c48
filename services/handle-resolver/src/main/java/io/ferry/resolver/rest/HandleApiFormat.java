package io.ferry.resolver.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

/**
 * CNRI's output parameters on {@code /api/handles} and {@code /api/prefixes}: {@code pretty} indents the JSON,
 * {@code callback=f} answers JSONP, {@code f(…);} as {@code application/javascript}, the name scrubbed as CNRI's
 * servlet scrubs it (every character that may not appear in a JavaScript identifier becomes {@code _}).
 */
public class HandleApiFormat {

    final ObjectMapper json;

    @Inject
    public HandleApiFormat(ObjectMapper json) {
        this.json = json;
    }

    @ServerResponseFilter
    public void format(ContainerRequestContext request, ContainerResponseContext response) throws JsonProcessingException {
        String path = request.getUriInfo().getPath();
        if (!path.startsWith("/api/handles") && !path.startsWith("/api/prefixes") || !response.hasEntity()
                || response.getEntity() instanceof String) {
            return;
        }
        var query = request.getUriInfo().getQueryParameters();
        boolean pretty = truthy(query.getFirst("pretty"));
        String callback = query.getFirst("callback");
        if (!pretty && callback == null) {
            return;
        }
        String body = pretty ? json.writerWithDefaultPrettyPrinter().writeValueAsString(response.getEntity())
                : json.writeValueAsString(response.getEntity());
        if (callback != null) {
            response.setEntity(scrub(callback) + "(" + body + ");", null, MediaType.valueOf("application/javascript;charset=UTF-8"));
        } else {
            response.setEntity(body, null, MediaType.APPLICATION_JSON_TYPE);
        }
        response.getHeaders().remove(HttpHeaders.CONTENT_LENGTH);
    }

    /** CNRI's reading of a boolean parameter: present and empty, {@code true} or {@code yes}. */
    static boolean truthy(String value) {
        return value != null && (value.isEmpty() || "true".equalsIgnoreCase(value) || "yes".equalsIgnoreCase(value));
    }

    static String scrub(String callback) {
        StringBuilder out = new StringBuilder(callback.length());
        for (int i = 0; i < callback.length(); i++) {
            char ch = callback.charAt(i);
            boolean ok = ch == '_' || ch == '$' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (i > 0 && ch >= '0' && ch <= '9') || ch >= 0xA0;
            out.append(ok ? ch : '_');
        }
        return out.toString();
    }
}
