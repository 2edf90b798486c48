package io.ferry.resolver.api;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** A prefix homed or unhomed. Answered as a {@code Response} entity: registered for reflection. */
@RegisterForReflection
public record PrefixAnswer(int responseCode, String prefix) {
}
