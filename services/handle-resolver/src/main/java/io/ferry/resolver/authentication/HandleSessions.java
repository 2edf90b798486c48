package io.ferry.resolver.authentication;

import jakarta.enterprise.context.ApplicationScoped;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The sessions of CNRI's {@code /api/sessions}: each has an id, the server nonce a client signs with its own nonce,
 * and, once a challenge was answered, the identity it proved (with the header that proved it, so that a client
 * repeating the same header is not verified again, as CNRI's authenticator does). Sessions live in this process and
 * end after {@link #IDLE} without use, as the servlet container's sessions of CNRI's server do.
 */
@ApplicationScoped
public class HandleSessions {

    /** An open session. {@code caller} and {@code provenBy} are null until it authenticates. */
    public record Session(String id, byte[] nonce, HandleAccess.Caller caller, String provenBy) {
    }

    static final Duration IDLE = Duration.ofMinutes(30);

    /** More open sessions than real clients leave; beyond it expired ones are dropped, then the oldest refused. */
    static final int MAX_OPEN = 100_000;

    private record Entry(Session session, long lastUsedNanos) {
    }

    private final SecureRandom random = new SecureRandom();
    private final Map<String, Entry> open = new ConcurrentHashMap<>();

    /** A new, unauthenticated session with a fresh nonce; null when too many are open. */
    public Session open() {
        long now = System.nanoTime();
        if (open.size() >= MAX_OPEN) {
            open.values().removeIf(e -> expired(e, now));
            if (open.size() >= MAX_OPEN) {
                return null;
            }
        }
        byte[] nonce = new byte[16];
        random.nextBytes(nonce);
        while (true) {
            byte[] id = new byte[16];
            random.nextBytes(id);
            Session s = new Session(HexFormat.of().formatHex(id), nonce, null, null);
            if (open.putIfAbsent(s.id(), new Entry(s, now)) == null) {
                return s;
            }
        }
    }

    /** The session {@code id}, marked as used; null when unknown or expired. */
    public Session find(String id) {
        if (id == null) {
            return null;
        }
        long now = System.nanoTime();
        Entry e = open.computeIfPresent(id, (k, v) -> expired(v, now) ? null : new Entry(v.session(), now));
        return e == null ? null : e.session();
    }

    /** Records that {@code session} proved {@code caller} with the header {@code provenBy}. */
    public Session authenticated(Session session, HandleAccess.Caller caller, String provenBy) {
        Session s = new Session(session.id(), session.nonce(), caller, provenBy);
        open.computeIfPresent(session.id(), (k, v) -> new Entry(s, System.nanoTime()));
        return s;
    }

    /** Ends a session; whether it was open. */
    public boolean close(String id) {
        return id != null && open.remove(id) != null;
    }

    private static boolean expired(Entry e, long now) {
        return now - e.lastUsedNanos() > IDLE.toNanos();
    }
}
