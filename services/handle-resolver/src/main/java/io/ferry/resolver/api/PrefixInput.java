package io.ferry.resolver.api;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.List;

/** The further admins (handles or subjects) of a prefix being homed. */
public record PrefixInput(@Schema(nullable = true, description = "null: none") List<String> admins) {
}
