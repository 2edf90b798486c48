package io.ferry.resolver.api;

import java.util.List;

/** Totals over every identifier, and one page of the at-risk ones; {@code next} is the cursor of the next page. */
public record AtRiskPage(int minReplicas, String scope, long identifiers, long atRisk, long singleCopy, long noCopy,
                     long bytesAtRisk, int limit, String next, List<AtRiskItem> items) {
}
