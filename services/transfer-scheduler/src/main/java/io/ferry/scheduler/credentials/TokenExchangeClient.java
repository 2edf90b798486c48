package io.ferry.scheduler.credentials;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ferry.scheduler.config.SchedulerConfig;
import jakarta.enterprise.context.ApplicationScoped;

import java.io.IOException;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * OAuth 2.0 token exchange (RFC 8693) and refresh (RFC 6749 §6) at a token issuer, the scheduler authenticating as
 * the issuer's client: a token about to expire is handed in for a fresh one, a submitter's token for a long-lived one,
 * a refresh token for an access token narrowed to one side of a copy. Neither token is
 * ever part of a failure's message.
 */
@ApplicationScoped
public class TokenExchangeClient {

    static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).followRedirects(HttpClient.Redirect.NEVER).build();

    /** {@code text} with every token the request carried cut out (an issuer may quote what it refused). */
    private static String scrub(String text, Map<String, String> form) {
        for (String key : new String[]{"subject_token", "refresh_token"}) {
            String token = form.get(key);
            if (token != null && !token.isEmpty()) {
                text = text.replace(token, "[token]");
            }
        }
        return text;
    }

    /** The exchange failed; the message names the issuer's answer, never a token. */
    public static final class ExchangeFailed extends Exception {
        private final boolean refused;

        public ExchangeFailed(String message) {
            this(message, false);
        }

        /** {@code refused}: the issuer answered 4xx, so asking again will not help. */
        public ExchangeFailed(String message, boolean refused) {
            super(message, null, false, false);
            this.refused = refused;
        }

        public boolean refused() {
            return refused;
        }
    }

    /** What the issuer answered: an access token and, where it granted offline access, a refresh token (else null). */
    public record Granted(String accessToken, String refreshToken) {
    }

    /** A fresh access token for {@code token} from {@code issuer}; {@code scope} null keeps what the issuer grants. */
    public String exchange(SchedulerConfig.StorageTokens.Exchange issuer, String token, String scope) throws ExchangeFailed {
        return exchange(issuer, token, scope, null).accessToken();
    }

    /** As {@link #exchange(SchedulerConfig.StorageTokens.Exchange, String, String)}, for {@code audience} (null: the issuer's choice). */
    public Granted exchange(SchedulerConfig.StorageTokens.Exchange issuer, String token, String scope, String audience) throws ExchangeFailed {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", "urn:ietf:params:oauth:grant-type:token-exchange");
        form.put("subject_token", token);
        form.put("subject_token_type", "urn:ietf:params:oauth:token-type:access_token");
        form.put("requested_token_type", "urn:ietf:params:oauth:token-type:access_token");
        optional(form, scope, audience);
        return post(issuer, form);
    }

    /** An access token for {@code scope} and {@code audience} from a refresh token {@code issuer} granted (RFC 6749 §6). */
    public Granted refresh(SchedulerConfig.StorageTokens.Exchange issuer, String refreshToken, String scope, String audience) throws ExchangeFailed {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", "refresh_token");
        form.put("refresh_token", refreshToken);
        optional(form, scope, audience);
        return post(issuer, form);
    }

    private static void optional(Map<String, String> form, String scope, String audience) {
        if (scope != null) {
            form.put("scope", scope);
        }
        if (audience != null) {
            form.put("audience", audience);
        }
    }

    private Granted post(SchedulerConfig.StorageTokens.Exchange issuer, Map<String, String> form) throws ExchangeFailed {
        String body = form.entrySet().stream().map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8)).collect(Collectors.joining("&"));
        String basic = Base64.getEncoder().encodeToString((URLEncoder.encode(issuer.clientId(), StandardCharsets.UTF_8) + ":"
                + URLEncoder.encode(issuer.clientSecret(), StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8));
        HttpRequest request = HttpRequest.newBuilder(issuer.tokenEndpoint()).timeout(TIMEOUT)
                .header("Content-Type", "application/x-www-form-urlencoded").header("Accept", "application/json")
                .header("Authorization", "Basic " + basic).POST(HttpRequest.BodyPublishers.ofString(body)).build();
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new ExchangeFailed(issuer.tokenEndpoint() + " could not be reached: " + e.getClass().getSimpleName());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ExchangeFailed("interrupted");
        }
        JsonNode answer;
        try {
            answer = JSON.readTree(response.body());
        } catch (IOException e) {
            answer = null;
        }
        if (response.statusCode() != 200 || answer == null || !answer.path("access_token").isTextual()) {
            String error = answer != null && answer.path("error").isTextual() ? answer.path("error").asText() : "no OAuth error";
            String description = answer != null && answer.path("error_description").isTextual()
                    ? ": " + scrub(answer.path("error_description").asText(), form) : "";
            // 4xx is the issuer's decision (invalid_grant, access_denied…): asking again will not change it
            throw new ExchangeFailed(issuer.tokenEndpoint() + " answered HTTP " + response.statusCode() + " (" + error + description + ")",
                    response.statusCode() >= 400 && response.statusCode() < 500);
        }
        return new Granted(answer.path("access_token").asText(),
                answer.path("refresh_token").isTextual() && !answer.path("refresh_token").asText().isEmpty() ? answer.path("refresh_token").asText() : null);
    }
}
