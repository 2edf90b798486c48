/** FTS3's shapes shared by the API: times, name-based ids, the client's paths, multi-job statuses, and the discovery calls. */
package io.ferry.scheduler.fts3;
