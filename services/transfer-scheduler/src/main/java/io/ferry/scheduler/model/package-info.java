/** Pure decisions without I/O: fair share, the optimizer, retry policy, SE matching and access, submission parsing. */
package io.ferry.scheduler.model;
