package io.ferry.profiles.api;

import io.ferry.profiles.model.ConfigText;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.Map;

/**
 * What a site admin sends for a host. {@code nicSpeed} takes "10G", "25G", "1000M" or a number of Mbit/s.
 * Label keys and values follow Kubernetes label syntax so the same selectors work in Tuned CRs.
 */
public record HostInput(
        @NotBlank @Size(max = 253) @Pattern(regexp = "^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$",
                message = "must be a DNS host name") String name,
        @NotBlank @Size(max = 100) @Pattern(regexp = "^[A-Za-z0-9][A-Za-z0-9_.-]*$", message = "must be a site name such as RAL-LCG2") String site,
        @Size(max = 100) @Pattern(regexp = "^[A-Za-z0-9][A-Za-z0-9_.-]*$", message = "must be an SE name such as RAL-ECHO") String storageElement,
        @NotBlank @Schema(pattern = Syntax.NIC_SPEED) String nicSpeed,
        @Min(576) @Max(65535) Integer mtu,
        @Size(max = 200) @Pattern(regexp = ConfigText.SINGLE_LINE, message = ConfigText.SINGLE_LINE_MESSAGE) String kernel,
        @Size(max = 64) Map<@Pattern(regexp = HostInput.LABEL_KEY, message = "must be a label key") String,
                @NotNull @Pattern(regexp = "^([A-Za-z0-9]([A-Za-z0-9_.-]{0,61}[A-Za-z0-9])?)?$", message = "must be a label value") String> labels) {

    /** Kubernetes label keys. */
    public static final String LABEL_KEY = "^([a-z0-9.-]+/)?[A-Za-z0-9]([A-Za-z0-9_.-]{0,61}[A-Za-z0-9])?$";

    /** A site name, or nothing (where a site is optional). */
    public static final String SITE_OR_EMPTY = "^([A-Za-z0-9][A-Za-z0-9_.-]*)?$";
}
