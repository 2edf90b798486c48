package io.ferry.rates.api;

import jakarta.validation.constraints.NotNull;

import java.util.List;

/** The sites a site group is to hold. */
public record GroupInput(@NotNull List<String> sites) {
}
