package io.ferry.profiles.model;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.List;
import java.util.Map;

/**
 * A recommended TCP profile for a path, each setting with the reason for its value.
 *
 * @param bdpBytes          bandwidth-delay product of the path at NIC speed
 * @param perStreamBytes    the window one TCP stream needs (BDP / streams)
 */
public record Recommendation(Inputs inputs, long bdpBytes, long perStreamBytes, ProfileSettings settings,
                             Map<String, String> reasons, List<Warning> warnings) {

    public record Inputs(int nicMbps, double rttMs, int streams, boolean streamsGiven, @Schema(nullable = true) Integer mtu,
                         @Schema(nullable = true) String congestionControl) {
    }

    public record Warning(String code, String message) {
    }
}
