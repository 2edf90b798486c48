package io.ferry.profiles.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import jakarta.validation.constraints.Size;

import java.time.OffsetDateTime;

/**
 * What a host runs, as raw command output: {@code sysctl -a} and {@code ip link}. {@code observedAt} defaults to
 * the time of receipt.
 */
public record ObservationInput(@JsonProperty("sysctl") @Size(max = 900_000) String sysctlText,
                               @JsonProperty("ip_link") @Size(max = 200_000) String ipLinkText,
                               @JsonProperty("observed_at") OffsetDateTime observedAt) {
}
