package io.ferry.scheduler.client;

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
 * OAuth 2.0 token exchange (RFC 8693) at a token issuer: an access token that is about to expire is handed in
 * (with the scope it had) for a fresh one, the scheduler authenticating as the issuer's client. Neither token is
 * ever part of a failure's message.
 */
@ApplicationScoped
public class TokenExchangeClient {

    static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).followRedirects(HttpClient.Redirect.NEVER).build();

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

    /** A fresh access token for {@code token} from {@code issuer}; {@code scope} null keeps what the issuer grants. */
    public String exchange(SchedulerConfig.StorageTokens.Exchange issuer, String token, String scope) throws ExchangeFailed {
        return exchange(issuer, token, scope, null);
    }

    /** As {@link #exchange(SchedulerConfig.StorageTokens.Exchange, String, String)}, for {@code audience} (null: the issuer's choice). */
    public String exchange(SchedulerConfig.StorageTokens.Exchange issuer, String token, String scope, String audience) throws ExchangeFailed {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", "urn:ietf:params:oauth:grant-type:token-exchange");
        form.put("subject_token", token);
        form.put("subject_token_type", "urn:ietf:params:oauth:token-type:access_token");
        form.put("requested_token_type", "urn:ietf:params:oauth:token-type:access_token");
        if (scope != null) {
            form.put("scope", scope);
        }
        if (audience != null) {
            form.put("audience", audience);
        }
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
            throw new ExchangeFailed(issuer.tokenEndpoint() + " answered HTTP " + response.statusCode() + " (" + error + ")",
                    response.statusCode() >= 400 && response.statusCode() < 500);
        }
        return answer.path("access_token").asText();
    }
}
