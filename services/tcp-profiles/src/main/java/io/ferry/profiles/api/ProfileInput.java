package io.ferry.profiles.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.ferry.profiles.model.ConfigText;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.Map;

/**
 * A new version of a profile. {@code include} names a parent profile whose settings this one inherits (this
 * one's win); {@code site} makes it a site profile (omit for a global one, which needs profiles:admin). Summary and
 * comment are single lines: the summary is written into sysctl files and TuneD profiles.
 */
public record ProfileInput(
        @Schema(nullable = true) @Size(max = 500) @Pattern(regexp = ConfigText.SINGLE_LINE, message = ConfigText.SINGLE_LINE_MESSAGE) String summary,
        @Schema(nullable = true) @Pattern(regexp = Syntax.NAME, message = "must name a profile") String include,
        @Schema(nullable = true) @Size(max = 100) @Pattern(regexp = HostInput.SITE_OR_EMPTY, message = "must be a site name such as RAL-LCG2") String site,
        @Size(max = 100) Map<String, String> sysctls,
        @JsonProperty("interface") @Size(max = 10) Map<String, Integer> interfaceSettings,
        @Size(max = 1000) @Pattern(regexp = ConfigText.SINGLE_LINE, message = ConfigText.SINGLE_LINE_MESSAGE) String comment) {
}
