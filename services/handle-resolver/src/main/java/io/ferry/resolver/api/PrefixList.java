package io.ferry.resolver.api;

import io.quarkus.runtime.annotations.RegisterForReflection;

import java.util.List;

/** GET /api/prefixes: the prefixes homed here. Answered as a {@code Response} entity: registered for reflection. */
@RegisterForReflection
public record PrefixList(int responseCode, List<String> prefixes) {
}
