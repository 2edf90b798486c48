package io.ferry.resolver.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * A session as CNRI's {@code /api/sessions} shows it: its id and server nonce (base64), {@code authenticated} and
 * the {@code id} it proved, the {@code error} of a failed attempt; {@code {"authenticated":false}} when nothing else
 * is known. Answered as a {@code Response} entity, outside any REST method's signature: registered for reflection
 * for the native executable.
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SessionResponse(String sessionId, String nonce, Boolean authenticated, String id, String error) {
}
