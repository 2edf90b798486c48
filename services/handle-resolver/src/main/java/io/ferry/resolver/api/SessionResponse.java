package io.ferry.resolver.rest;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.ferry.resolver.service.HandleSessions;

import java.util.Base64;

/**
 * A session as CNRI's {@code /api/sessions} shows it: its id and server nonce (base64), {@code authenticated} and
 * the {@code id} it proved, the {@code error} of a failed attempt; {@code {"authenticated":false}} when nothing else
 * is known.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SessionResponse(String sessionId, String nonce, Boolean authenticated, String id, String error) {

    static SessionResponse of(HandleSessions.Session session, String error) {
        String sessionId = session == null ? null : session.id();
        String nonce = session == null ? null : Base64.getEncoder().encodeToString(session.nonce());
        boolean proven = session != null && session.caller() != null;
        if (sessionId == null && error == null) {
            return new SessionResponse(null, null, false, null, null);
        }
        return new SessionResponse(sessionId, nonce, proven ? Boolean.TRUE : null, proven ? session.caller().subject() : null, error);
    }

    /** A caller proven without a session (HTTP Basic on a sessionless request). */
    static SessionResponse proven(String id) {
        return new SessionResponse(null, null, true, id, null);
    }
}
