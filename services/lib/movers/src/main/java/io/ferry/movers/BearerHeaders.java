package io.ferry.movers;

import java.util.HashMap;
import java.util.Map;

/**
 * The request headers a side's credential adds: {@code Authorization: Bearer …} for a {@link BearerToken}, nothing
 * for the mover's own identity or a client certificate (which is presented in the TLS handshake instead). The mover
 * follows no redirect, so a token only ever goes to the host of the URL it was given for.
 */
final class BearerHeaders {

    private BearerHeaders() {
    }

    /** {@code headers} with the credential's Authorization added (a new map; the given one is not changed). */
    static Map<String, String> with(Map<String, String> headers, StorageCredential credential) {
        if (!(credential instanceof BearerToken token)) {
            return headers;
        }
        Map<String, String> out = new HashMap<>(headers);
        out.put("Authorization", token.authorization());
        return out;
    }

    /** Just the credential's headers. */
    static Map<String, String> of(StorageCredential credential) {
        return with(Map.of(), credential);
    }
}
