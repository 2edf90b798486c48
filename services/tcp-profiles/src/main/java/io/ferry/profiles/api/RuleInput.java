package io.ferry.profiles.api;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/**
 * An assignment rule: hosts matching {@code match} get {@code profile}; the lowest {@code priority} wins.
 * {@code site} limits the rule to one site's hosts (site admins may only write rules of their site).
 */
public record RuleInput(@NotBlank String profile, @NotNull @Min(0) @Max(1_000_000) Integer priority,
                        @NotNull JsonNode match,
                        @Size(max = 100) @Pattern(regexp = HostInput.SITE_OR_EMPTY, message = "must be a site name such as RAL-LCG2") String site) {
}
