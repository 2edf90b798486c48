package io.ferry.resolver.api;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** A name bound: its kind (lfn, guid or did) and handle. Answered as a {@code Response} entity: registered for reflection. */
@RegisterForReflection
public record NameBinding(String name, String kind, String handle) {
}
