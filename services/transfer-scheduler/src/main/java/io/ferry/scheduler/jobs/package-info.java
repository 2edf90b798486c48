/** Jobs as clients see them: submission, the job API and its FTS3 shapes, event streams, and the resolution of logical sources. */
package io.ferry.scheduler.jobs;
