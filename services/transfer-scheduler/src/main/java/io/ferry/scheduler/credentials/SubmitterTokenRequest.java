package io.ferry.scheduler.credentials;

import io.ferry.identity.model.AuthMethod;
import io.ferry.identity.model.GridCaller;
import io.ferry.scheduler.config.SchedulerConfig;
import io.ferry.scheduler.storage.StorageBoundary;
import io.ferry.scheduler.storage.StorageEndpoint;
import io.ferry.scheduler.submission.FileTokens;
import io.ferry.scheduler.submission.Submission;
import io.ferry.storageurl.StorageUrl;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * What a submission keeps of the submitter's token for files that bring no storage tokens (FTS3's "single token"
 * submission): where the caller authenticated with a token of an issuer configured for exchange
 * ({@code storage-tokens.exchange.*}), the token sealed once for the job and, per SE, side and SE origin, the scope
 * the engine will ask for ({@link ExchangeScope}, widened to cover all such files of the job there). The issuer is
 * not asked here: the engine does that ({@code SubmitterTokens}), so submission stays as fast as the database.
 */
@ApplicationScoped
public class SubmitterTokenRequest {

    private final SchedulerConfig config;
    private final TokenSeal seal;

    @Inject
    SubmitterTokenRequest(SchedulerConfig config, TokenSeal seal) {
        this.config = config;
        this.seal = seal;
    }

    /** The sealed submitter's token and the narrowed tokens its job will need. */
    public record Rows(byte[] sealed, String issuer, OffsetDateTime expiresAt, List<SubmitterTokenRows.Side> sides) {
    }

    /**
     * The rows for job {@code job}, or empty: a certificate caller, a token of an issuer not configured for
     * exchange, or every file bringing its own tokens. {@code checked}: the files' canonical URLs, in order.
     */
    public Optional<Rows> of(UUID job, Optional<GridCaller> caller, String bearer, List<Submission.FileRequest> files,
                             List<StorageBoundary.CheckedFile> checked, List<StorageEndpoint> endpoints) {
        if (bearer == null || caller.isEmpty() || caller.get().method() != AuthMethod.OAUTH2
                || config.storageTokens().exchange().values().stream().noneMatch(x -> x.issuer().equals(caller.get().issuer()))) {
            return Optional.empty();
        }
        Instant expiry = FileTokens.expiry(bearer);
        if (expiry == null) {
            return Optional.empty();
        }
        Map<String, StorageEndpoint> byName = new LinkedHashMap<>();
        endpoints.forEach(e -> byName.put(e.name, e));
        Map<List<String>, ExchangeScope> needed = new LinkedHashMap<>();
        for (int i = 0; i < files.size(); i++) {
            if (files.get(i).tokens() != null) {
                continue;
            }
            StorageBoundary.CheckedFile c = checked.get(i);
            for (int j = 0; j < c.sources().size(); j++) {
                need(needed, c.sourceSes().get(j), "source", c.sources().get(j), bases(byName, c.sourceSes().get(j)));
            }
            need(needed, c.destSe(), "destination", c.destination(), bases(byName, c.destSe()));
        }
        if (needed.isEmpty()) {
            return Optional.empty();
        }
        List<SubmitterTokenRows.Side> sides = new ArrayList<>();
        int tokenNo = SubmitterTokenRows.LONG_LIVED_SEAL;
        for (Map.Entry<List<String>, ExchangeScope> e : needed.entrySet()) {
            sides.add(new SubmitterTokenRows.Side(e.getKey().get(0), e.getKey().get(1), e.getValue().audience(), e.getValue().scope(), --tokenNo));
        }
        return Optional.of(new Rows(seal.seal(bearer, job, SubmitterTokenRows.SUBMITTER_SEAL), caller.get().issuer(),
                expiry.atOffset(ZoneOffset.UTC), sides));
    }

    private static void need(Map<List<String>, ExchangeScope> needed, String se, String side, StorageUrl url, Collection<String> bases) {
        ExchangeScope scope = ExchangeScope.of(url, bases, side.equals("source"));
        needed.merge(List.of(se, side, scope.audience()), scope, ExchangeScope::widenedTo);
    }

    private static Collection<String> bases(Map<String, StorageEndpoint> endpoints, String se) {
        StorageEndpoint e = endpoints.get(se);
        return e == null ? List.of() : e.baseUrls.values();
    }
}
