package io.ferry.resolver.api;

import org.eclipse.microprofile.openapi.annotations.media.Schema;
import java.util.List;

/** Totals over every identifier, and one page of the at-risk ones; {@code next} is the cursor of the next page. */
public record AtRiskPage(int minReplicas, @Schema(nullable = true) String scope, long identifiers, long atRisk, long singleCopy, long noCopy,
                     long bytesAtRisk, int limit, @Schema(nullable = true, description = "null on the last page") String next, List<AtRiskItem> items) {
}
