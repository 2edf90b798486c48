/** FTS3's monitoring messages: what a transfer record becomes on a STOMP broker, and the client that publishes it. */
package io.ferry.scheduler.monitoring;
