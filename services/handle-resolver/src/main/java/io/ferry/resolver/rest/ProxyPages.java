package io.ferry.resolver.rest;

import io.ferry.resolver.resolution.ProxyDecisions;
import io.ferry.resolver.model.HandleValue;
import io.ferry.resolver.proxy.ProxyResolver;

/** The proxy's HTML pages: values, gone, not found. Every value is escaped. */
final class ProxyPages {

    private ProxyPages() {
    }

    static String values(ProxyDecisions.Decision d) {
        StringBuilder rows = new StringBuilder();
        for (HandleValue v : d.values()) {
            rows.append("<tr><td>").append(v.index()).append("</td><td>").append(esc(v.type())).append("</td><td>")
                    .append(esc(v.timestamp())).append("</td><td><code>").append(esc(v.data().value().isTextual()
                            ? v.data().value().asText() : v.data().value().toString())).append("</code></td></tr>");
        }
        return page("Handle " + d.handle(), "<table><tr><th>Index</th><th>Type</th><th>Timestamp</th><th>Data</th></tr>" + rows + "</table>");
    }

    static String gone(ProxyDecisions.Decision d) {
        return page("Gone: " + d.handle(), "<p>The object identified by this handle was deleted"
                + (d.reason() == null ? "" : ": " + esc(d.reason())) + ". The identifier remains registered.</p>");
    }

    static String notFound(ProxyDecisions.Decision d) {
        return page("Not found: " + d.handle(), d.kind() == ProxyDecisions.Kind.NOT_RESPONSIBLE
                ? "<p>The prefix of this handle is not homed on this resolver.</p>" : "<p>No handle with this name exists.</p>");
    }

    private static String page(String title, String body) {
        return "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + esc(title) + "</title></head><body><h1>"
                + esc(title) + "</h1>" + body + "</body></html>";
    }

    static String esc(String s) {
        if (s == null) {
            return "";
        }
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;").replace("'", "&#39;");
    }
}
