package io.ferry.resolver.api;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * A session as CNRI's {@code /api/sessions} shows it: its id and server nonce (base64), {@code authenticated} and
 * the {@code id} it proved, the {@code error} of a failed attempt; {@code {"authenticated":false}} when nothing else
 * is known.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SessionResponse(String sessionId, String nonce, Boolean authenticated, String id, String error) {
}
