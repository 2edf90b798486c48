package io.ferry.resolver.api;

/** A replica of a data object to record: its SE, path below the SE's base URL, size, checksum and state. */
public record ReplicaInput(String handle, String se, String path, Long size, String adler32, String state) {
}
