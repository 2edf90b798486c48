package io.ferry.scheduler.submission;

import com.fasterxml.jackson.databind.JsonNode;
import io.ferry.problem.Problem;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;

/**
 * {@code params.webhook}: where Ferry POSTs the job's events ({@code {"url": "https://…", "file_failures": false}}).
 * Read here for its form only; whether the VO allows the host is the job service's check (it needs the database),
 * and the addresses the host resolves to are vetted at each delivery. Stored as given in the job's params, where the
 * outbox triggers read it.
 */
public record JobWebhook(URI url, boolean fileFailures) {

    public static final int MAX_URL_LENGTH = 2048;

    /** The job's webhook, null without one; a field error for each thing wrong with it. */
    public static JobWebhook read(JsonNode v, List<Problem.FieldError> errors) {
        if (v == null || v.isMissingNode() || v.isNull()) {
            return null;
        }
        if (!v.isObject()) {
            errors.add(new Problem.FieldError("params.webhook", "an object: {\"url\": \"https://…\", \"file_failures\": false}"));
            return null;
        }
        boolean fileFailures = false;
        JsonNode ff = v.get("file_failures");
        if (ff != null && !ff.isNull()) {
            if (ff.isBoolean()) {
                fileFailures = ff.booleanValue();
            } else {
                errors.add(new Problem.FieldError("params.webhook.file_failures", "true or false"));
            }
        }
        String problem = urlProblem(v.get("url"));
        if (problem != null) {
            errors.add(new Problem.FieldError("params.webhook.url", problem));
            return null;
        }
        return new JobWebhook(URI.create(v.get("url").textValue()), fileFailures);
    }

    /** Why the URL is no webhook's, null when it is one. */
    private static String urlProblem(JsonNode u) {
        if (u == null || !u.isTextual() || u.textValue().isBlank()) {
            return "required: an https:// URL";
        }
        String text = u.textValue();
        if (text.length() > MAX_URL_LENGTH) {
            return "at most " + MAX_URL_LENGTH + " characters";
        }
        URI url;
        try {
            url = new URI(text);
        } catch (URISyntaxException e) {
            return "not a URL: " + e.getReason();
        }
        if (!"https".equals(url.getScheme() == null ? null : url.getScheme().toLowerCase(Locale.ROOT))) {
            return "only https:// URLs are called";
        }
        if (url.getRawUserInfo() != null || url.getRawAuthority() != null && url.getRawAuthority().contains("@")) {
            return "no user information (user:password@) in the URL";
        }
        if (url.getHost() == null || url.getHost().isBlank()) {
            return "the URL names no host";
        }
        if (url.getRawFragment() != null) {
            return "no fragment (#…) in the URL";
        }
        return null;
    }
}
