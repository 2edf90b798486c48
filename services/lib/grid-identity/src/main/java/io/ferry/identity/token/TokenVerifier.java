package io.ferry.identity.token;

import com.nimbusds.jose.Algorithm;
import com.nimbusds.jose.Header;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.ferry.identity.mapping.AccessRules;
import io.ferry.identity.model.AuthMethod;
import io.ferry.identity.model.GridCaller;
import io.ferry.identity.model.Refusal;
import io.ferry.identity.model.Refusal.Code;

import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Verifies bearer tokens from the trusted issuers and turns them into a {@link GridCaller}. Only public-key
 * signatures are accepted ({@code RS*}, {@code PS*}, {@code ES*}): {@code alg: none} and every HMAC algorithm are
 * refused before any key is looked at, so a token "signed" with an issuer's public key as an HMAC secret never
 * reaches a verifier. The checks run in the order a caller can fix them: shape, algorithm, issuer, key,
 * signature, lifetime, audience.
 */
public final class TokenVerifier {

    private static final Set<JWSAlgorithm> PUBLIC_KEY_ALGORITHMS = Set.of(
            JWSAlgorithm.RS256, JWSAlgorithm.RS384, JWSAlgorithm.RS512,
            JWSAlgorithm.PS256, JWSAlgorithm.PS384, JWSAlgorithm.PS512,
            JWSAlgorithm.ES256, JWSAlgorithm.ES384, JWSAlgorithm.ES512);

    /** WLCG Common JWT Profile: the groups claim. */
    public static final String WLCG_GROUPS = "wlcg.groups";

    /** Tokens kept at most: a full cache is emptied, so memory stays bounded whatever callers send. */
    static final int VERIFIED_MAX = 10_000;

    private final List<Issuer> issuers;
    /**
     * Tokens whose signature verified, with what it verified against: a client that polls with the same token (FTS3's
     * CLI, Rucio's poller, a watch loop) pays for parsing and the signature once, not on every request. Lifetime and
     * audience are still checked on every use, and the key must still be one the issuer publishes, so a key the issuer
     * withdrew stops its tokens as soon as the issuer's key cache refreshes. Only tokens that passed every check are kept.
     */
    private final Map<String, Verified> verified = new ConcurrentHashMap<>();
    private final AccessRules rules;
    private final Duration clockSkew;
    private final Clock clock;

    /** A trusted issuer with its key cache. */
    public record Issuer(TrustedIssuer settings, IssuerKeys keys) {
    }

    public TokenVerifier(List<Issuer> issuers, AccessRules rules, Duration clockSkew, Clock clock) {
        this.issuers = List.copyOf(issuers);
        this.rules = rules;
        this.clockSkew = clockSkew;
        this.clock = clock;
    }

    /** Builds each issuer's key cache with the given factory (an HTTP client and the cache times live there). */
    public static TokenVerifier of(List<TrustedIssuer> trusted, Function<TrustedIssuer, IssuerKeys> keys,
                                   AccessRules rules, Duration clockSkew, Clock clock) {
        return new TokenVerifier(trusted.stream().map(t -> new Issuer(t, keys.apply(t))).toList(), rules, clockSkew, clock);
    }

    /** A token whose signature verified: its claims, its issuer and the key it verified with. */
    private record Signed(JWTClaimsSet claims, Issuer issuer, String kid, JWK key) {
    }

    /** A token that passed every check, and the caller it stands for. */
    private record Verified(Signed token, GridCaller caller) {
    }

    /** The caller a token stands for, or a {@link Refusal.RefusedException} saying why not. */
    public GridCaller verify(String token) {
        Verified known = token == null ? null : verified.get(token);
        boolean fresh = known == null || !known.token().issuer().keys().candidates(known.token().kid()).contains(known.token().key());
        Signed signed = fresh ? verifySignature(token) : known.token();
        checkLifetime(signed.claims());
        checkAudience(signed.claims(), signed.issuer().settings());
        if (!fresh) {
            return known.caller();
        }
        GridCaller caller = caller(signed.claims(), signed.issuer().settings());
        if (verified.size() >= VERIFIED_MAX) {
            verified.clear();
        }
        verified.put(token, new Verified(signed, caller));
        return caller;
    }

    /** Shape, algorithm, issuer, key and signature of a token not verified before (or whose key is gone since). */
    private Signed verifySignature(String token) {
        SignedJWT jwt = parse(token);
        JWTClaimsSet claims = claims(jwt);
        Issuer issuer = issuerOf(claims.getIssuer());
        return new Signed(claims, issuer, jwt.getHeader().getKeyID(), verifySignature(jwt, issuer));
    }

    private static SignedJWT parse(String token) {
        String[] parts = token == null ? new String[0] : token.split("\\.", -1);
        if (parts.length != 3 || parts[0].isEmpty() || parts[1].isEmpty()) {
            throw Refusal.of(Code.TOKEN_MALFORMED, "a bearer token is three base64url parts separated by dots").exception();
        }
        Algorithm alg;
        try {
            alg = Header.parse(new Base64URL(parts[0])).getAlgorithm();
        } catch (ParseException | RuntimeException e) {
            throw Refusal.of(Code.TOKEN_MALFORMED, "the token header is not a JOSE header").exception();
        }
        if (Algorithm.NONE.equals(alg) || parts[2].isEmpty()) {
            throw Refusal.of(Code.TOKEN_UNSIGNED, "unsigned tokens (alg: none) are not accepted").exception();
        }
        if (!(alg instanceof JWSAlgorithm jws) || !PUBLIC_KEY_ALGORITHMS.contains(jws)) {
            throw Refusal.of(Code.TOKEN_ALGORITHM_NOT_ALLOWED, "tokens signed with " + alg.getName()
                    + " are not accepted; only public-key signatures (RS*, PS*, ES*) are").exception();
        }
        try {
            return SignedJWT.parse(token);
        } catch (ParseException e) {
            throw Refusal.of(Code.TOKEN_MALFORMED, "the token cannot be parsed: " + e.getMessage()).exception();
        }
    }

    private static JWTClaimsSet claims(SignedJWT jwt) {
        try {
            return jwt.getJWTClaimsSet();
        } catch (ParseException e) {
            throw Refusal.of(Code.TOKEN_MALFORMED, "the token's claims are not a JSON object").exception();
        }
    }

    private Issuer issuerOf(String iss) {
        if (iss == null) {
            throw Refusal.of(Code.TOKEN_MALFORMED, "the token names no issuer (iss)").exception();
        }
        return issuers.stream().filter(i -> i.settings().names(iss)).findFirst().orElseThrow(() ->
                Refusal.of(Code.TOKEN_UNKNOWN_ISSUER, "issuer '" + echo(iss) + "' is not trusted").exception());
    }

    /** The issuer's key the token's signature verifies with, or a refusal. */
    private static JWK verifySignature(SignedJWT jwt, Issuer issuer) {
        String kid = jwt.getHeader().getKeyID();
        List<JWK> candidates = issuer.keys().candidates(kid);
        if (candidates.isEmpty()) {
            if (!issuer.keys().available()) {
                throw Refusal.of(Code.TOKEN_ISSUER_KEYS_UNAVAILABLE, "the keys of issuer '" + issuer.settings().issuer()
                        + "' cannot be fetched now").exception();
            }
            throw Refusal.of(Code.TOKEN_UNKNOWN_KEY, "issuer '" + issuer.settings().issuer() + "' has no key '" + echo(kid)
                    + "'").exception();
        }
        JWSAlgorithm alg = jwt.getHeader().getAlgorithm();
        for (JWK key : candidates) {
            JWSVerifier verifier = verifierFor(key, alg);
            try {
                if (verifier != null && jwt.verify(verifier)) {
                    return key;
                }
            } catch (JOSEException e) {
                // A key of the right type that cannot check this signature (wrong curve): try the next.
            }
        }
        throw Refusal.of(Code.TOKEN_BAD_SIGNATURE, "the signature does not verify with the keys of issuer '"
                + issuer.settings().issuer() + "'").exception();
    }

    private static JWSVerifier verifierFor(JWK key, JWSAlgorithm alg) {
        try {
            if (key instanceof RSAKey rsa && (JWSAlgorithm.Family.RSA.contains(alg))) {
                return new RSASSAVerifier(rsa.toRSAPublicKey());
            }
            if (key instanceof ECKey ec && JWSAlgorithm.Family.EC.contains(alg)) {
                return new ECDSAVerifier(ec.toECPublicKey());
            }
        } catch (JOSEException e) {
            return null;
        }
        return null;
    }

    private void checkLifetime(JWTClaimsSet claims) {
        Instant now = clock.instant();
        Date exp = claims.getExpirationTime();
        if (exp == null) {
            throw Refusal.of(Code.TOKEN_MALFORMED, "the token has no expiry (exp)").exception();
        }
        if (now.isAfter(exp.toInstant().plus(clockSkew))) {
            throw Refusal.of(Code.TOKEN_EXPIRED, "the token expired at " + exp.toInstant()).exception();
        }
        Date nbf = claims.getNotBeforeTime();
        if (nbf != null && now.plus(clockSkew).isBefore(nbf.toInstant())) {
            throw Refusal.of(Code.TOKEN_NOT_YET_VALID, "the token is valid only from " + nbf.toInstant()).exception();
        }
        Date iat = claims.getIssueTime();
        if (iat != null && now.plus(clockSkew).isBefore(iat.toInstant())) {
            throw Refusal.of(Code.TOKEN_NOT_YET_VALID, "the token was issued in the future, at " + iat.toInstant()).exception();
        }
    }

    private static void checkAudience(JWTClaimsSet claims, TrustedIssuer issuer) {
        List<String> aud = claims.getAudience();
        if (aud.stream().anyMatch(issuer.audiences()::contains)) {
            return;
        }
        throw Refusal.of(Code.TOKEN_WRONG_AUDIENCE, aud.isEmpty() ? "the token names no audience (aud)"
                : "the token is for " + echo(String.valueOf(aud)) + ", not for " + new TreeSet<>(issuer.audiences())).exception();
    }

    private GridCaller caller(JWTClaimsSet claims, TrustedIssuer issuer) {
        String subject = claims.getSubject();
        if (subject == null || subject.isBlank()) {
            throw Refusal.of(Code.TOKEN_MALFORMED, "the token names no subject (sub)").exception();
        }
        List<String> scopes = scopes(claims);
        List<String> groups = strings(claims, WLCG_GROUPS);
        List<String> vos = vos(issuer.vo(), claims, groups);
        Set<String> roles = new TreeSet<>(rules.rolesForScopes(scopes, issuer.ownScopesAreRoles()));
        roles.addAll(rules.rolesForGroups(groups));
        String site = issuer.site().map(name -> first(strings(claims, name))).orElse(null);
        return new GridCaller(subject, subject, vos, groups, new LinkedHashSet<>(scopes), roles, AuthMethod.OAUTH2,
                claims.getIssuer(), site);
    }

    private static List<String> vos(TrustedIssuer.VoRule rule, JWTClaimsSet claims, List<String> groups) {
        if (rule instanceof TrustedIssuer.VoRule.Fixed fixed) {
            return List.of(fixed.vo());
        }
        if (rule instanceof TrustedIssuer.VoRule.FromClaim claim) {
            List<String> named = strings(claims, claim.claim());
            // a WLCG-profile token of the same issuer names its VO the profile's way, by its groups
            if (!named.isEmpty()) {
                return named;
            }
        }
        return List.copyOf(AccessRules.vosOf(groups));
    }

    /** {@code scope} is a space-separated string (RFC 8693, WLCG); some issuers send {@code scp} as a list. */
    private static List<String> scopes(JWTClaimsSet claims) {
        Object scope = claims.getClaim("scope");
        if (scope instanceof String s) {
            return Arrays.stream(s.trim().split("\\s+")).filter(v -> !v.isEmpty()).distinct().toList();
        }
        return strings(claims, scope == null ? "scp" : "scope");
    }

    /** A claim as strings: a string is one value, a list of strings several, anything else none. */
    private static List<String> strings(JWTClaimsSet claims, String name) {
        Object value = claims.getClaim(name);
        if (value instanceof String s) {
            return s.isBlank() ? List.of() : List.of(s);
        }
        if (value instanceof Collection<?> c) {
            List<String> out = new ArrayList<>();
            for (Object o : c) {
                if (o instanceof String s && !s.isBlank()) {
                    out.add(s);
                }
            }
            return out;
        }
        return List.of();
    }

    /** A value from the token, as a refusal repeats it: cut short, since the caller chose it. */
    private static String echo(String value) {
        return value == null || value.length() <= 200 ? value : value.substring(0, 200) + "...";
    }

    private static String first(List<String> values) {
        return values.isEmpty() ? null : values.get(0);
    }
}
