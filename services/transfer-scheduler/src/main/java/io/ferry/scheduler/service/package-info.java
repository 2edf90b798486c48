/** Request-side logic: submission and bookkeeping of jobs, SEs, links and shares, who the caller is, and event streams. */
package io.ferry.scheduler.service;
