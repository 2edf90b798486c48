/** An FTS3 submission as it is read: its files, multihop chains, tape parameters, storage tokens and checksum mode; pure, without I/O. */
package io.ferry.scheduler.submission;
