/** Listening to a PostgreSQL LISTEN/NOTIFY channel for the life of a service, across database restarts. */
package io.ferry.pglisten;
