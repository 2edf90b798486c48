/** The records handle-resolver reads from and writes to its clients, as JSON, in Handle.net's shapes where it has them. */
package io.ferry.resolver.api;
