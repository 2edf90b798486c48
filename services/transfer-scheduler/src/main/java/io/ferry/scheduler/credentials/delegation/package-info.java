/** FTS3's X.509 proxy delegation: certificate requests, delegated proxies sealed at rest, and the proxy a job's copies present. */
package io.ferry.scheduler.credentials.delegation;
