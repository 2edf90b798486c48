package io.ferry.identity.config;

import io.ferry.identity.mapping.AccessRules;
import io.ferry.identity.token.TrustedIssuer;
import io.ferry.identity.x509.TrustSettings;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** The configuration as the verifiers take it. */
public final class IdentitySettings {

    private IdentitySettings() {
    }

    /** The trusted issuers, in the order of their configured names. */
    public static List<TrustedIssuer> issuers(IdentityConfig config) {
        List<String> defaults = config.audiences().orElse(List.of());
        return new TreeMap<>(config.issuers()).entrySet().stream().map(e -> issuer(e.getKey(), e.getValue(), defaults)).toList();
    }

    private static TrustedIssuer issuer(String name, IdentityConfig.Issuer i, List<String> defaultAudiences) {
        Set<String> audiences = new LinkedHashSet<>(i.audiences().orElse(defaultAudiences));
        if (i.acceptAnyAudience()) {
            audiences.add(TrustedIssuer.ANY_AUDIENCE);
        }
        if (i.vo().isPresent() && i.voClaim().isPresent()) {
            throw new IllegalArgumentException("ferry.identity.issuers." + name + ": vo and vo-claim exclude each other");
        }
        if (audiences.isEmpty()) {
            throw new IllegalArgumentException("ferry.identity.issuers." + name + ": no audience is accepted; set "
                    + "ferry.identity.audiences or the issuer's audiences");
        }
        TrustedIssuer.VoRule vo = i.vo().<TrustedIssuer.VoRule>map(TrustedIssuer.VoRule.Fixed::new)
                .or(() -> i.voClaim().map(TrustedIssuer.VoRule.FromClaim::new))
                .orElseGet(TrustedIssuer.VoRule.FromGroups::new);
        return new TrustedIssuer(i.url(), i.jwks(), audiences, vo, i.siteClaim(), i.ownScopes());
    }

    public static AccessRules rules(IdentityConfig config) {
        return new AccessRules(sets(config.scopes()), sets(config.groups()), sets(config.fqans()), sets(config.dns()));
    }

    /** The X.509 trust settings, when client certificates are enabled. */
    public static Optional<TrustSettings> trust(IdentityConfig config) {
        IdentityConfig.X509 x = config.x509();
        if (!x.enabled()) {
            return Optional.empty();
        }
        return Optional.of(new TrustSettings(x.trustAnchors(), x.vomsdir(), x.crls(), x.namespaces(), x.refresh(),
                Set.copyOf(x.vos().orElse(List.of()))));
    }

    private static Map<String, Set<String>> sets(Map<String, List<String>> lists) {
        return lists.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> Set.copyOf(e.getValue())));
    }
}
