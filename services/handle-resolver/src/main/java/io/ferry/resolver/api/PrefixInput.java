package io.ferry.resolver.api;

import jakarta.validation.constraints.NotBlank;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.List;

/** The further admins (handles or subjects) of a prefix being homed. */
public record PrefixInput(@Schema(nullable = true, description = "null: none") List<@NotBlank String> admins) {
}
