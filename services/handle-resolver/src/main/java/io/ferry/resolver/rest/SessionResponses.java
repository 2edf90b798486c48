package io.ferry.resolver.rest;

import io.ferry.resolver.api.SessionResponse;
import io.ferry.resolver.authentication.HandleSessions;

import java.util.Base64;

/** The {@link SessionResponse} of a session, or of a caller proven without one. */
final class SessionResponses {

    private SessionResponses() {
    }

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
