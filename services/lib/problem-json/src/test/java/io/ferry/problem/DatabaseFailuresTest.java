package io.ferry.problem;

import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.ClosedConnectionException;
import jakarta.ws.rs.ProcessingException;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketException;
import java.sql.SQLException;
import java.util.concurrent.CompletionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class DatabaseFailuresTest {

    /** What the reactive pool fails with while PostgreSQL is stopped, wrapped as Hibernate Reactive passes it on. */
    @Test
    void aRefusedConnectionIsTheDatabaseBeingUnavailable() {
        Throwable refused = new CompletionException(new RuntimeException("acquire", new ConnectException("Connection refused: /127.0.0.1:5432")));
        Problem p = DatabaseFailures.problemFor(refused);
        assertEquals(503, p.status());
        assertEquals("DATABASE_UNAVAILABLE", p.code());
    }

    @Test
    void aConnectionLostMidQueryOrAShutdownIsTheDatabaseBeingUnavailable() {
        assertEquals(503, DatabaseFailures.problemFor(new RuntimeException(ClosedConnectionException.INSTANCE)).status());
        assertEquals(503, DatabaseFailures.problemFor(pg("57P01", "terminating connection due to administrator command")).status());
        assertEquals(503, DatabaseFailures.problemFor(pg("57P03", "the database system is starting up")).status());
        assertEquals(503, DatabaseFailures.problemFor(pg("08006", "connection failure")).status());
        assertEquals(503, DatabaseFailures.problemFor(new RuntimeException(new SQLException("terminating connection", "57P01"))).status());
    }

    /** The first use of a pooled connection after PostgreSQL was killed: the socket was reset under it. */
    @Test
    void aResetConnectionIsTheDatabaseBeingUnavailable() {
        assertEquals(503, DatabaseFailures.problemFor(new CompletionException(new SocketException("Connection reset"))).status());
        assertEquals(503, DatabaseFailures.problemFor(new RuntimeException(new IOException("recvAddress(..) failed: Connection reset by peer"))).status());
        assertNull(DatabaseFailures.problemFor(new ProcessingException(new SocketException("Connection reset"))));
    }

    @Test
    void anotherServiceBeingDownIsNotTheDatabase() {
        assertNull(DatabaseFailures.problemFor(new ProcessingException(new ConnectException("Connection refused: /127.0.0.1:8082"))));
    }

    @Test
    void aNulByteRefusedByPostgresIsBadInput() {
        Problem direct = DatabaseFailures.problemFor(pg("22021", "invalid byte sequence for encoding \"UTF8\": 0x00"));
        assertEquals(400, direct.status());
        assertEquals("INVALID_INPUT", direct.code());
        // Hibernate Reactive turns the client's exception into a JDBC-style one that keeps the SQLSTATE.
        Problem viaHibernate = DatabaseFailures.problemFor(new RuntimeException("error executing SQL statement",
                new SQLException("ERROR: invalid byte sequence for encoding \"UTF8\": 0x00 (22021)", "22021")));
        assertEquals(400, viaHibernate.status());
        assertEquals("INVALID_INPUT", viaHibernate.code());
    }

    @Test
    void otherDatabaseErrorsStayUnexpected() {
        assertNull(DatabaseFailures.problemFor(pg("23505", "duplicate key value violates unique constraint")));
        assertNull(DatabaseFailures.problemFor(pg("42P01", "relation does not exist")));
        assertNull(DatabaseFailures.problemFor(new IllegalStateException("boom")));
    }

    @Test
    void aCycleInTheCausesEnds() {
        RuntimeException a = new RuntimeException("a");
        RuntimeException b = new RuntimeException("b", a);
        a.initCause(b);
        assertNull(DatabaseFailures.problemFor(a));
    }

    private static PgException pg(String state, String message) {
        return new PgException(message, "FATAL", state, null);
    }
}
