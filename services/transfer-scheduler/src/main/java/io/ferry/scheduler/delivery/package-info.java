/** What leaves the scheduler from the outbox: transfer records to rate-aggregator and FTS3's monitoring messages to a STOMP broker. */
package io.ferry.scheduler.delivery;
