/** Following a job's progress from its event stream and drawing it on a terminal or as plain lines. */
package io.ferry.cli.watch;
