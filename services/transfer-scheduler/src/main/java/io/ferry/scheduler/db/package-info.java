/** The scheduler's PostgreSQL plumbing: the one timeout on its answers, the engine's statement-caching pool, transactions driven step by step, and which failures may simply run again. */
package io.ferry.scheduler.db;
