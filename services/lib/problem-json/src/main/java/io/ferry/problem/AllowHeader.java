package io.ferry.problem;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.smallrye.openapi.runtime.OpenApiDocumentService;
import io.smallrye.openapi.runtime.io.Format;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The {@code Allow} header of every 405 (RFC 9110 requires it; RESTEasy Reactive answers a method a path does not take
 * with a bare 405) and the answer to OPTIONS. The methods come from the service's own OpenAPI document, the list of
 * operations clients are told about, read once when first needed.
 */
@ApplicationScoped
public class AllowHeader {

    private static final Logger LOG = Logger.getLogger(AllowHeader.class);
    private static final List<String> METHODS = List.of("get", "put", "post", "delete", "options", "head", "patch", "trace");
    private static final Pattern TEMPLATE = Pattern.compile("\\{[^}/]+}");

    private final Instance<OpenApiDocumentService> documents;
    private volatile List<PathMethods> paths;

    public AllowHeader(Instance<OpenApiDocumentService> documents) {
        this.documents = documents;
    }

    /** A path template of the document, matched one segment per parameter, or (when none matched) any number. */
    record PathMethods(Pattern segment, Pattern anyDepth, int segments, int literals, Set<String> methods) {
    }

    void install(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE + 5).handler(rc -> {
            if (rc.request().method() == HttpMethod.OPTIONS && answerOptions(rc)) {
                return;
            }
            rc.addHeadersEndHandler(v -> addAllow(rc));
            rc.next();
        });
    }

    /**
     * Answers an OPTIONS request (not a CORS preflight) for a path of the document with its methods. RESTEasy
     * Reactive's own answer lists the methods of every path its resource class shares a prefix with ({@code /groups}
     * would claim the DELETE and PUT of {@code /groups/{name}}).
     */
    private boolean answerOptions(RoutingContext rc) {
        if (rc.request().getHeader("Access-Control-Request-Method") != null) {
            return false;
        }
        String allow = allowFor(rc.normalizedPath());
        if (allow == null) {
            return false;
        }
        rc.response().setStatusCode(200).putHeader("Allow", allow).putHeader("Content-Length", "0").end();
        return true;
    }

    private void addAllow(RoutingContext rc) {
        if (rc.response().getStatusCode() != 405 || rc.response().headers().contains("Allow")) {
            return;
        }
        String allow = allowFor(rc.normalizedPath());
        if (allow != null) {
            rc.response().putHeader("Allow", allow);
        }
    }

    /** The methods the document lists for {@code path}, with the HEAD and OPTIONS JAX-RS adds, or null if it has none. */
    String allowFor(String path) {
        List<PathMethods> known = paths;
        if (known == null) {
            known = paths = load();
        }
        return allowFor(known, path);
    }

    /**
     * The union of the methods of the templates matching {@code path} one segment per parameter with the most literal
     * segments (two can name the same path: {@code /api/handles/{handle}} and {@code /api/handles/{prefix}}), else of
     * those matching with parameters spanning segments (of those, the templates with the most segments); null when none
     * matches.
     */
    static String allowFor(List<PathMethods> known, String path) {
        Set<String> exact = new LinkedHashSet<>();
        Set<String> spanning = new LinkedHashSet<>();
        int spanningSegments = 0;
        int exactLiterals = -1;
        for (PathMethods p : known) {
            if (p.segment().matcher(path).matches()) {
                // a literal segment wins over a parameter, as in JAX-RS: /hosts/import rather than /hosts/{name}
                if (p.literals() > exactLiterals) {
                    exact.clear();
                    exactLiterals = p.literals();
                }
                if (p.literals() == exactLiterals) {
                    exact.addAll(p.methods());
                }
            } else if (exact.isEmpty() && p.anyDepth().matcher(path).matches() && p.segments() >= spanningSegments) {
                // the template with the most segments is the closest: /a/{prefix}/{suffix} rather than /a/{handle}
                if (p.segments() > spanningSegments) {
                    spanning.clear();
                    spanningSegments = p.segments();
                }
                spanning.addAll(p.methods());
            }
        }
        Set<String> methods = exact.isEmpty() ? spanning : exact;
        if (methods.isEmpty()) {
            return null;
        }
        List<String> ordered = new ArrayList<>();
        for (String m : METHODS) {
            if (methods.contains(m.toUpperCase(Locale.ROOT))) {
                ordered.add(m.toUpperCase(Locale.ROOT));
            }
        }
        return String.join(", ", ordered);
    }

    private List<PathMethods> load() {
        try {
            if (!documents.isResolvable()) {
                return List.of();
            }
            return parse(documents.get().getDocument("<default>", Format.JSON));
        } catch (IOException | RuntimeException e) {
            LOG.warnf("cannot read the OpenAPI document for Allow headers: %s", e.getMessage());
            return List.of();
        }
    }

    /** The path templates of an OpenAPI document (JSON) with their methods. */
    static List<PathMethods> parse(byte[] document) throws IOException {
        JsonNode paths = new ObjectMapper().readTree(document).path("paths");
        List<PathMethods> out = new ArrayList<>();
        for (Iterator<String> names = paths.fieldNames(); names.hasNext(); ) {
            String template = names.next();
            Set<String> methods = new LinkedHashSet<>();
            for (String m : METHODS) {
                if (paths.get(template).has(m)) {
                    methods.add(m.toUpperCase(Locale.ROOT));
                }
            }
            if (methods.contains("GET")) {
                methods.add("HEAD");
            }
            methods.add("OPTIONS");
            String[] segments = template.split("/");
            int literals = (int) java.util.Arrays.stream(segments).filter(seg -> !seg.isEmpty() && !seg.contains("{")).count();
            out.add(new PathMethods(regex(template, "[^/]+"), regex(template, ".+"), segments.length, literals, methods));
        }
        return out;
    }

    private static Pattern regex(String template, String parameter) {
        StringBuilder regex = new StringBuilder();
        var m = TEMPLATE.matcher(template);
        int last = 0;
        while (m.find()) {
            regex.append(Pattern.quote(template.substring(last, m.start()))).append(parameter);
            last = m.end();
        }
        regex.append(Pattern.quote(template.substring(last)));
        // FTS3's client asks for //jobs, which the services take as /jobs; a trailing slash is the same resource.
        return Pattern.compile("/*" + regex.toString().replaceFirst("^\\\\Q/", "\\\\Q") + "/?");
    }
}
