package io.ferry.problem;

import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.ClosedConnectionException;
import io.vertx.sqlclient.DatabaseException;
import jakarta.ws.rs.ProcessingException;

import java.io.IOException;
import java.net.SocketException;
import java.nio.channels.ClosedChannelException;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Recognises the database failures that are not the service's fault, in whatever the reactive PostgreSQL client or
 * Hibernate Reactive wrapped them: PostgreSQL being unreachable (503, the client may retry) and values PostgreSQL
 * refuses to store, such as a NUL byte in a text (400). Everything else stays an unexpected failure.
 */
public final class DatabaseFailures {

    public static final String UNAVAILABLE = "DATABASE_UNAVAILABLE";
    /** Seconds a client should wait before retrying while the database is away: about the time a restart takes. */
    public static final int RETRY_AFTER_SECONDS = 5;

    /** Connection failure, shutdown, starting up, crash recovery, too many connections. */
    private static final Set<String> UNAVAILABLE_STATES = Set.of("57P01", "57P02", "57P03", "53300", "53000");
    /** Data exceptions caused by the value sent, by SQLSTATE, with what the client is told. */
    private static final Map<String, String> REFUSED_VALUES = Map.of(
            "22021", "a text contains a NUL byte or a byte sequence that is not UTF-8",
            "22P05", "a text contains a character that cannot be stored",
            "22001", "a value is longer than allowed",
            "22003", "a number is out of range",
            "22P02", "a value does not have the expected form",
            "22007", "a date or time does not have the expected form",
            "22008", "a date or time is out of range",
            "54000", "a value is too large to be stored");
    private static final int MAX_CAUSES = 30;

    private DatabaseFailures() {
    }

    /** The problem to answer for {@code failure}, or null when it is not a database failure this class knows. */
    public static Problem problemFor(Throwable failure) {
        if (isUnavailable(failure)) {
            return Problem.of(503, UNAVAILABLE, "the database is not reachable; retry in a few seconds");
        }
        Throwable refused = refusedValue(failure);
        if (refused != null) {
            String reason = REFUSED_VALUES.get(sqlState(refused));
            Problem p = Problem.of(400, "INVALID_INPUT", "a value of the request is not accepted: " + reason);
            String column = refused instanceof PgException pg ? pg.getColumn() : null;
            return column == null ? p : p.withErrors(List.of(new Problem.FieldError(column, reason)));
        }
        return null;
    }

    /**
     * True when the failure says PostgreSQL cannot be reached or is going away. A refused connection counts only when
     * no REST client call is in the chain: another service being down is not the database being down.
     */
    public static boolean isUnavailable(Throwable failure) {
        boolean restClient = false;
        boolean connectionLost = false;
        int depth = 0;
        for (Throwable t = failure; t != null && depth < MAX_CAUSES; t = t.getCause() == t ? null : t.getCause(), depth++) {
            if (t instanceof ClosedConnectionException) {
                return true;
            }
            String state = sqlState(t);
            if (state != null && (state.startsWith("08") || UNAVAILABLE_STATES.contains(state))) {
                return true;
            }
            restClient |= t instanceof ProcessingException;
            connectionLost |= t instanceof SocketException || t instanceof ClosedChannelException || isReset(t);
        }
        return connectionLost && !restClient;
    }

    /**
     * A pooled connection whose server went away fails its next use with a reset: a {@link SocketException} from the
     * JDK's sockets, or an {@link IOException} with the same text from Netty's native transport.
     */
    private static boolean isReset(Throwable t) {
        return t instanceof IOException && t.getMessage() != null && t.getMessage().contains("Connection reset");
    }

    /** The first failure in the chain whose SQLSTATE says PostgreSQL refused a value, or null. */
    private static Throwable refusedValue(Throwable failure) {
        int depth = 0;
        for (Throwable t = failure; t != null && depth < MAX_CAUSES; t = t.getCause() == t ? null : t.getCause(), depth++) {
            String state = sqlState(t);
            if (state != null && REFUSED_VALUES.containsKey(state)) {
                return t;
            }
        }
        return null;
    }

    /** The SQLSTATE of the Vert.x client's exception, or of the {@link SQLException} Hibernate Reactive made of it. */
    static String sqlState(Throwable t) {
        if (t instanceof DatabaseException db) {
            return db.getSqlState();
        }
        return t instanceof SQLException sql ? sql.getSQLState() : null;
    }
}
