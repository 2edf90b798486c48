/** Building submissions: bulk lists, FTS3 JSON, job splitting and intervals such as {@code 12h}. */
package io.ferry.cli.transfer;
