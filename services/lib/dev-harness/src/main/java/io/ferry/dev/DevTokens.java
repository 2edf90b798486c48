package io.ferry.dev;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.Signature;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Mints RS256 bearer tokens in Ferry's claim layout: {@code sub}, {@code vo}, {@code site}, space-separated
 * {@code scope}, issuer and audience. For local use and tests only: production tokens come from the
 * site's identity provider (for example an INDIGO IAM or a WLCG token issuer).
 */
public final class DevTokens {

    public static final String ISSUER = "https://ferry.local/issuer";
    public static final String AUDIENCE = "ferry";

    private final DevKeys keys;

    public DevTokens(DevKeys keys) {
        this.keys = keys;
    }

    /** What a token says; {@code vo} and {@code site} may be null. */
    public record Claims(String subject, String vo, String site, String scope, Duration lifetime, String issuer,
                         String audience) {
        public static Claims of(String subject, String vo, String scope) {
            return new Claims(subject, vo, null, scope, Duration.ofHours(12), ISSUER, AUDIENCE);
        }

        public Claims withSite(String newSite) {
            return new Claims(subject, vo, newSite, scope, lifetime, issuer, audience);
        }

        public Claims withLifetime(Duration newLifetime) {
            return new Claims(subject, vo, site, scope, newLifetime, issuer, audience);
        }

        public Claims withIssuer(String newIssuer) {
            return new Claims(subject, vo, site, scope, lifetime, newIssuer, audience);
        }
    }

    /**
     * What a WLCG Common JWT Profile token of the dev issuer says (as an experiment's IAM would issue it): its VO in
     * {@code wlcg.groups} rather than a {@code vo} claim, WLCG scopes ({@code fts}, {@code storage.read:/path}, ...).
     */
    public record WlcgClaims(String subject, List<String> groups, String scope, String audience, Duration lifetime) {
        /** WLCG's audience for a token that any service may accept. */
        public static final String ANY_AUDIENCE = "https://wlcg.cern.ch/jwt/v1/any";
        /** What Rucio asks an IAM for: FTS access, and reading and writing the VO's storage. */
        public static final String DEFAULT_SCOPE = "fts storage.read:/ storage.modify:/";

        public WlcgClaims {
            groups = List.copyOf(groups);
        }

        /** A member of {@code vo} (group {@code /vo}) with the default scopes, for any service, for 12 hours. */
        public static WlcgClaims of(String subject, String vo) {
            return new WlcgClaims(subject, List.of("/" + vo), DEFAULT_SCOPE, ANY_AUDIENCE, Duration.ofHours(12));
        }
    }

    public String mint(Claims claims) {
        Map<String, Object> body = registered(claims.issuer(), claims.audience(), claims.subject(), claims.lifetime());
        if (claims.vo() != null) {
            body.put("vo", claims.vo());
        }
        if (claims.site() != null) {
            body.put("site", claims.site());
        }
        body.put("scope", claims.scope() == null ? "" : claims.scope());
        return sign(body);
    }

    /** A WLCG-profile token ({@code wlcg.ver} 1.0) signed by the dev key, issued by {@link #ISSUER}. */
    public String mintWlcg(WlcgClaims claims) {
        Map<String, Object> body = registered(ISSUER, claims.audience(), claims.subject(), claims.lifetime());
        body.put("wlcg.ver", "1.0");
        body.put("scope", claims.scope());
        body.put("wlcg.groups", claims.groups());
        return sign(body);
    }

    private static Map<String, Object> registered(String issuer, String audience, String subject, Duration lifetime) {
        Instant now = Instant.now();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("iss", issuer);
        body.put("aud", audience);
        body.put("sub", subject);
        body.put("jti", UUID.randomUUID().toString());
        body.put("iat", now.getEpochSecond());
        // A negative lifetime gives an already expired token, which tests use.
        body.put("exp", now.plus(lifetime).getEpochSecond());
        return body;
    }

    private String sign(Map<String, Object> body) {
        String header = b64("{\"alg\":\"RS256\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));
        String payload = b64(json(body).getBytes(StandardCharsets.UTF_8));
        String signingInput = header + "." + payload;
        try {
            Signature rs256 = Signature.getInstance("SHA256withRSA");
            rs256.initSign(keys.privateKey());
            rs256.update(signingInput.getBytes(StandardCharsets.US_ASCII));
            return signingInput + "." + b64(rs256.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot sign a token", e);
        }
    }

    private static String b64(byte[] bytes) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static String json(Map<String, Object> claims) {
        StringBuilder out = new StringBuilder("{");
        for (Map.Entry<String, Object> e : claims.entrySet()) {
            if (out.length() > 1) {
                out.append(',');
            }
            out.append(quote(e.getKey())).append(':');
            if (e.getValue() instanceof Number n) {
                out.append(n);
            } else if (e.getValue() instanceof List<?> values) {
                out.append(values.stream().map(v -> quote(String.valueOf(v))).collect(java.util.stream.Collectors.joining(",", "[", "]")));
            } else {
                out.append(quote(String.valueOf(e.getValue())));
            }
        }
        return out.append('}').toString();
    }

    private static String quote(String s) {
        StringBuilder q = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> q.append("\\\"");
                case '\\' -> q.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        q.append(String.format("\\u%04x", (int) c));
                    } else {
                        q.append(c);
                    }
                }
            }
        }
        return q.append('"').toString();
    }
}
