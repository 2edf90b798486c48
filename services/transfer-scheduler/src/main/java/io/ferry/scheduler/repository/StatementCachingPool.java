package io.ferry.scheduler.repository;

import io.quarkus.reactive.pg.client.PgPoolCreator;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.SqlConnectOptions;
import jakarta.inject.Singleton;

import java.util.ArrayList;
import java.util.List;

/**
 * The reactive pool, built as Quarkus would, except that statements of any length are kept prepared per connection.
 * Vert.x caches only statements shorter than 2,048 characters; the engine's claim, prepare and record statements are
 * CTEs several times that long, so without this PostgreSQL parsed and planned each of them on every execution
 * (a third of its time per small file). Quarkus itself only switches the cache on or off
 * ({@code quarkus.datasource.reactive.cache-prepared-statements}); when it is off this creator changes nothing.
 */
@Singleton
public class StatementCachingPool implements PgPoolCreator {

    /** Longer than any statement the scheduler sends (the longest is about 9,000 characters). */
    static final int STATEMENT_SQL_LIMIT = 64 * 1024;

    @Override
    public Pool create(Input input) {
        List<SqlConnectOptions> servers = new ArrayList<>();
        for (PgConnectOptions o : input.pgConnectOptionsList()) {
            SqlConnectOptions copy = new PgConnectOptions(o);
            if (o.getCachePreparedStatements()) {
                copy.setPreparedStatementCacheSqlLimit(STATEMENT_SQL_LIMIT);
            }
            servers.add(copy);
        }
        return PgBuilder.pool().with(input.poolOptions()).connectingTo(servers).using(input.vertx()).build();
    }
}
