package io.ferry.identity.token;

import java.net.URI;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * One issuer whose tokens a service accepts.
 *
 * @param issuer            the {@code iss} value, as the issuer writes it
 * @param keys              where its public keys are: a JWKS URL ({@code https:}) or file ({@code file:}), or a
 *                          {@code file:} PEM public key (Ferry's dev issuer, whose tokens carry no {@code kid})
 * @param audiences         the {@code aud} values accepted from this issuer (one must match)
 * @param vo                how its tokens name their VO
 * @param site              the claim naming the site a site administrator administers, if this issuer sets one
 * @param ownScopesAreRoles true for Ferry's own issuer: its scope values are Ferry roles already
 */
public record TrustedIssuer(String issuer, URI keys, Set<String> audiences, VoRule vo, Optional<String> site,
                            boolean ownScopesAreRoles) {

    /** WLCG's audience for tokens meant for any relying party. */
    public static final String ANY_AUDIENCE = "https://wlcg.cern.ch/jwt/v1/any";

    public TrustedIssuer {
        Objects.requireNonNull(issuer, "issuer");
        Objects.requireNonNull(keys, "keys");
        if (!trustworthyLocation(keys)) {
            throw new IllegalArgumentException("the keys of issuer " + issuer + " must come from https: or file: (http: only"
                    + " on the loopback interface), not " + keys);
        }
        audiences = Set.copyOf(audiences);
        Objects.requireNonNull(vo, "vo");
    }

    /** How a token's VO is found. */
    public sealed interface VoRule {
        /** Every token of this issuer acts for one VO (an experiment's own IAM). */
        record Fixed(String vo) implements VoRule {
        }

        /** The VOs are the first components of {@code wlcg.groups} ({@code /atlas/production} is atlas). */
        record FromGroups() implements VoRule {
        }

        /** A named claim holds the VO (Ferry's dev issuer: {@code vo}); a token without it is read by its groups. */
        record FromClaim(String claim) implements VoRule {
        }
    }

    /** Keys fetched over plain HTTP could be anyone's: only a local test issuer may serve them so. */
    private static boolean trustworthyLocation(URI keys) {
        String scheme = keys.getScheme() == null ? "" : keys.getScheme().toLowerCase(java.util.Locale.ROOT);
        return switch (scheme) {
            case "https", "file" -> true;
            case "http" -> "127.0.0.1".equals(keys.getHost()) || "localhost".equals(keys.getHost()) || "[::1]".equals(keys.getHost());
            default -> false;
        };
    }

    /** Issuer names compare without a trailing slash: IAM writes {@code https://host/}, configurations often not. */
    boolean names(String iss) {
        return iss != null && strip(iss).equals(strip(issuer));
    }

    private static String strip(String s) {
        return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
    }
}
