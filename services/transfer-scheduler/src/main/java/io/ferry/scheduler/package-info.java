/** transfer-scheduler's entry point. */
package io.ferry.scheduler;
