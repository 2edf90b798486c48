package io.ferry.resolver.api;

/** A logical name (LFN, GUID or scope:name) to bind to a handle. */
public record NameInput(String name, String handle) {
}
