package io.ferry.identity.config;

import io.ferry.identity.mapping.AccessRules;
import io.ferry.identity.token.TrustedIssuer;
import io.ferry.identity.x509.TrustSettings;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.TreeMap;

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
        Map<String, Set<String>> scopes = new HashMap<>();
        Map<String, Set<String>> groups = new HashMap<>();
        Map<String, Set<String>> fqans = new HashMap<>();
        Map<String, Set<String>> dns = new HashMap<>();
        config.grants().forEach((name, grant) -> {
            if (grant.scope().isEmpty() && grant.group().isEmpty() && grant.fqan().isEmpty() && grant.dn().isEmpty()) {
                throw new IllegalArgumentException("ferry.identity.grants." + name + " names no scope, group, fqan or dn");
            }
            grant.scope().ifPresent(v -> scopes.computeIfAbsent(v, k -> new TreeSet<>()).addAll(grant.roles()));
            grant.group().ifPresent(v -> groups.computeIfAbsent(v, k -> new TreeSet<>()).addAll(grant.roles()));
            grant.fqan().ifPresent(v -> fqans.computeIfAbsent(AccessRules.shortFqan(v), k -> new TreeSet<>()).addAll(grant.roles()));
            grant.dn().ifPresent(v -> dns.computeIfAbsent(v, k -> new TreeSet<>()).addAll(grant.roles()));
        });
        return new AccessRules(scopes, groups, fqans, dns);
    }

    /** The X.509 trust settings, when client certificates are enabled. */
    public static Optional<TrustSettings> trust(IdentityConfig config) {
        IdentityConfig.X509 x = config.x509();
        if (!x.enabled()) {
            return Optional.empty();
        }
        return Optional.of(new TrustSettings(x.trustAnchors(), x.vomsdir(), x.crls(), x.namespaces(), x.refresh(),
                Set.copyOf(x.vos().orElse(List.of())), x.cacheFor()));
    }
}
