package io.ferry.cli.transfer;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;

/**
 * {@code ferry submit --webhook URL [--webhook-file-failures]}: the scheduler's {@code params.webhook}, where it POSTs
 * a signed event when the job ends (and on each file failure when asked). The scheduler decides whether the host is
 * allowed for the VO; an URL that cannot be one (not https) is refused before a request goes out.
 */
public final class Webhooks {

    private Webhooks() {
    }

    public static String check(String url) {
        try {
            URI u = new URI(url.trim());
            if (!"https".equals(String.valueOf(u.getScheme()).toLowerCase(Locale.ROOT)) || u.getHost() == null) {
                throw new IllegalArgumentException("--webhook " + url + ": an https:// URL with a host name is needed");
            }
            return u.toString();
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("--webhook " + url + ": not a URL (" + e.getReason() + ")");
        }
    }

    /** Sets the webhook (null: none) in every body's params. */
    public static void apply(List<ObjectNode> bodies, String url, boolean fileFailures) {
        if (url != null) {
            bodies.forEach(b -> ((ObjectNode) b.get("params")).putObject("webhook").put("url", url).put("file_failures", fileFailures));
        }
    }
}
