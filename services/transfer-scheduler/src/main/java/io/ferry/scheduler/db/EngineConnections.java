package io.ferry.scheduler.db;

import jakarta.inject.Qualifier;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The pool the engine's queue statements run on: the transfer pass (its count of startable files and its claims), the
 * prepare loop's snapshot, its claims and the update of the files it prepared. Its connections plan each prepared statement once
 * ({@link StatementCachingPool#enginePool}); everything else uses the default pool.
 */
@Qualifier
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER, ElementType.TYPE})
public @interface EngineConnections {
}
