package io.ferry.resolver.api;

import java.util.List;

/** The further admins (handles or subjects) of a prefix being homed. */
public record PrefixInput(List<String> admins) {
}
