package io.ferry.scheduler.db;

import io.quarkus.reactive.pg.client.PgPoolCreator;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.SqlConnectOptions;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.util.ArrayList;
import java.util.List;

/**
 * The reactive pool, built as Quarkus would, except that statements of any length are kept prepared per connection;
 * beside it, built from the same settings, the engine's pool ({@link EngineConnections}).
 * <p>
 * Vert.x caches only statements shorter than 2,048 characters; the engine's claim, prepare and record statements are
 * CTEs several times that long, so without this PostgreSQL parsed and planned each of them on every execution.
 * Quarkus itself only switches the cache on or off ({@code quarkus.datasource.reactive.cache-prepared-statements});
 * when it is off this creator changes nothing but the second pool.
 */
@Singleton
public class StatementCachingPool implements PgPoolCreator {

    /** Longer than any statement the scheduler sends (the longest is about 9,000 characters). */
    static final int STATEMENT_SQL_LIMIT = 64 * 1024;

    final int enginePoolSize;

    @Inject
    public StatementCachingPool(
            @ConfigProperty(name = "ferry.db.engine-pool-size", defaultValue = "4") int enginePoolSize) {
        this.enginePoolSize = enginePoolSize;
    }

    private volatile Pool engine;

    @Override
    public Pool create(Input input) {
        engine = PgBuilder.pool().with(new PoolOptions(input.poolOptions()).setMaxSize(enginePoolSize).setShared(false))
                .connectingTo(servers(input, true)).using(input.vertx()).build();
        return PgBuilder.pool().with(input.poolOptions()).connectingTo(servers(input, false)).using(input.vertx()).build();
    }

    /**
     * The engine's pool. Its statements select by queue (link, VO, activity) and take the first files in priority
     * order, and their best plan does not depend on the values; but PostgreSQL's own choice planned two of them anew
     * on every execution (the prepare claim and the count of startable files: a custom plan, with a few expressions
     * folded, always looked cheaper than the generic one), 0.18 ms per small file of its 1.3 ms. Here each is planned
     * once per connection. Statements that pick files by an array of ids stay on the default pool: a generic plan
     * cannot see the array's length and may scan every queued file by state instead of probing the primary key. The
     * one exception, the prepared files' update, writes its condition so that no index but the primary key fits it.
     */
    @Produces
    @EngineConnections
    @Singleton
    io.vertx.mutiny.sqlclient.Pool enginePool(io.vertx.mutiny.sqlclient.Pool pool) {
        // injecting the default pool has Quarkus call create(), which builds this one with it
        return io.vertx.mutiny.sqlclient.Pool.newInstance(engine);
    }

    void closeEnginePool(@Disposes @EngineConnections io.vertx.mutiny.sqlclient.Pool pool) {
        pool.closeAndAwait();
    }

    private static List<SqlConnectOptions> servers(Input input, boolean planOnce) {
        List<SqlConnectOptions> servers = new ArrayList<>();
        for (PgConnectOptions o : input.pgConnectOptionsList()) {
            PgConnectOptions copy = new PgConnectOptions(o);
            if (o.getCachePreparedStatements()) {
                copy.setPreparedStatementCacheSqlLimit(STATEMENT_SQL_LIMIT);
            }
            if (planOnce) {
                copy.addProperty("plan_cache_mode", "force_generic_plan");
            }
            servers.add(copy);
        }
        return servers;
    }
}
