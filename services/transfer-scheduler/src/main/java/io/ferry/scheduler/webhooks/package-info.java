/**
 * Job webhooks: each VO's allowed hosts and signing secret (administrators), the outbox the database's triggers fill
 * when a job ends or a file fails, and its delivery, which never calls into Ferry's own network (docs/webhooks.md).
 */
package io.ferry.scheduler.webhooks;
