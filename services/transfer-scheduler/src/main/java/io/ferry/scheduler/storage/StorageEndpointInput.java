package io.ferry.scheduler.storage;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.Map;

/**
 * An SE as an administrator registers it. {@code baseUrls} maps a protocol (https, davs, http, dav, file, root,
 * gsiftp) to the URL prefix under which the SE's files live. {@code access}: which VOs may read and write (see
 * {@link StorageAccess}); absent means closed — nobody may use the SE until it is given rules or {@code open: true}.
 * {@code allowServiceIdentity} (default true): false makes every file bring its own credential for this SE (a bearer
 * token), since Ferry's own identity is then never used toward it.
 */
public record StorageEndpointInput(
        @Schema(pattern = "^[A-Za-z0-9][A-Za-z0-9_.-]*$") @NotBlank @Size(max = 100) @Pattern(regexp = "[A-Za-z0-9][A-Za-z0-9_.-]*", message = "must be a site name such as RAL-LCG2") String site,
        @Schema(required = true, minProperties = 1, maxProperties = 12, propertyNames = Protocol.class) @NotEmpty @Size(max = 12) Map<@Pattern(regexp = "https|davs|http|dav|file|root|roots|s3|s3s|gsiftp|srm|tape", message = "must be one of https, davs, http, dav, file, root, roots, s3, s3s, gsiftp, srm, tape") String,
                @NotBlank @Size(max = 500) String> baseUrls,
        StorageAccess access,
        Boolean needsPrepare,
        Boolean thirdPartyCopy,
        @Min(1) @Max(10000) Integer inboundMaxActive,
        @Min(1) @Max(10000) Integer outboundMaxActive,
        Boolean allowServiceIdentity) {

    @Schema(type = SchemaType.STRING, enumeration = {"https", "davs", "http", "dav", "file", "root", "roots", "s3", "s3s", "gsiftp", "srm", "tape"})
    static final class Protocol {
    }

    StorageEndpointService.Registration registration() {
        return new StorageEndpointService.Registration(site, baseUrls, access, needsPrepare, thirdPartyCopy, inboundMaxActive, outboundMaxActive,
                allowServiceIdentity);
    }
}
