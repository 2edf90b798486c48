package io.ferry.resolver.replicas;

import io.ferry.problem.Problem;
import io.ferry.problem.ProblemException;
import io.ferry.resolver.api.AtRiskItem;
import io.ferry.resolver.api.AtRiskPage;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.smallrye.mutiny.Uni;
import io.ferry.resolver.repository.AtRiskObjects;
import io.vertx.pgclient.PgException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/**
 * Identifiers with fewer than N available replicas — sites found 556 of 1,497 datasets with a single copy; this
 * finds them before a disk does. Data objects are handles with a bound name or any replica record.
 * <p>
 * The report is anonymous, so it is bounded: one page of at most {@value #MAX_LIMIT} items (default
 * {@value #DEFAULT_LIMIT}), the next page after an opaque {@code cursor} (keyset: available replicas, bytes, handle,
 * so a page costs the same wherever it starts), and the database gives up on it after {@value #TIMEOUT}.
 */
@ApplicationScoped
public class AtRiskReport {

    public static final int DEFAULT_LIMIT = 100;
    public static final int MAX_LIMIT = 1000;
    static final String TIMEOUT = "10s";

    /** Where a page starts: after this item in report order. */
    record Cursor(long available, long bytes, String handle) {

        String encode() {
            return Base64.getUrlEncoder().withoutPadding().encodeToString((available + ":" + bytes + ":" + handle).getBytes(StandardCharsets.UTF_8));
        }

        static Cursor decode(String text) {
            try {
                String[] parts = new String(Base64.getUrlDecoder().decode(text), StandardCharsets.UTF_8).split(":", 3);
                return new Cursor(Long.parseLong(parts[0]), Long.parseLong(parts[1]), parts[2]);
            } catch (IllegalArgumentException | ArrayIndexOutOfBoundsException e) {
                throw ProblemException.badRequest("cursor", "not a cursor of this report (use the 'next' of a page)");
            }
        }
    }

    final AtRiskObjects objects;

    @Inject
    public AtRiskReport(AtRiskObjects objects) {
        this.objects = objects;
    }

    /** The page size asked for: 1..{@value #MAX_LIMIT}, {@value #DEFAULT_LIMIT} when not given. */
    public static int limit(String text) {
        if (text == null || text.isBlank()) {
            return DEFAULT_LIMIT;
        }
        try {
            int limit = Integer.parseInt(text.trim());
            if (limit >= 1 && limit <= MAX_LIMIT) {
                return limit;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw ProblemException.badRequest("limit", "between 1 and " + MAX_LIMIT);
    }

    @WithSpan
    public Uni<AtRiskPage> report(int minReplicas, String scope, int limit, String cursorText) {
        if (minReplicas < 1 || minReplicas > 100) {
            throw ProblemException.badRequest("min_replicas", "between 1 and 100");
        }
        if (scope != null && (scope.length() > 100 || scope.indexOf('\0') >= 0)) {
            throw ProblemException.badRequest("scope", "a scope of at most 100 characters");
        }
        Cursor after = cursorText == null || cursorText.isEmpty() ? null : Cursor.decode(cursorText);
        AtRiskObjects.After start = after == null ? null : new AtRiskObjects.After(after.available(), after.bytes(), after.handle());
        return objects.page(minReplicas, scope, start, limit + 1, TIMEOUT)
                .map(page -> {
                    boolean more = page.items().size() > limit;
                    List<AtRiskItem> items = more ? page.items().subList(0, limit) : page.items();
                    AtRiskItem last = more ? items.get(items.size() - 1) : null;
                    String next = more ? new Cursor(last.availableReplicas(), last.bytes(), last.handle()).encode() : null;
                    AtRiskObjects.Totals totals = page.totals();
                    return new AtRiskPage(minReplicas, scope, totals.identifiers(), totals.atRisk(), totals.singleCopy(), totals.noCopy(),
                            totals.bytesAtRisk(), limit, next, items);
                })
                .onFailure(e -> e instanceof PgException pg && "57014".equals(pg.getSqlState()))
                .transform(e -> new ProblemException(Problem.of(503, "REPORT_TIMEOUT",
                        "the report took longer than " + TIMEOUT + "; narrow it with scope or try again later")));
    }
}
