package io.ferry.identity.model;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

/**
 * The authenticated caller, the same in every service whatever it presented.
 *
 * @param subject   the token's {@code sub}, or the end-entity certificate's DN for certificates
 * @param dn        FTS3's {@code user_dn}: the certificate DN in OpenSSL's {@code /C=../CN=..} form, or the token
 *                  subject for tokens (as FTS3 does for OAuth2 callers)
 * @param vos       the VOs the caller acts for, primary first (from VOMS, token groups, a claim or the issuer)
 * @param fqans     VOMS FQANs as the attribute certificate states them, or the token's {@code wlcg.groups}
 * @param scopes    what the credential itself says it may do: the token's scope values (WLCG or Ferry's own);
 *                  empty for certificates
 * @param roles     Ferry roles granted after mapping ({@code transfer:submit}, {@code profiles:admin}, ...): what
 *                  {@code @RolesAllowed} checks
 * @param method    how the caller authenticated
 * @param issuer    the token issuer, or the DN of the CA that issued the end-entity certificate
 * @param site      the site a site administrator administers (a token claim), or null
 */
public record GridCaller(String subject, String dn, List<String> vos, List<String> fqans, Set<String> scopes,
                         Set<String> roles, AuthMethod method, String issuer, String site) {

    public GridCaller {
        vos = List.copyOf(vos);
        fqans = List.copyOf(fqans);
        scopes = Set.copyOf(scopes);
        roles = Set.copyOf(roles);
    }

    /** The primary VO, or null when the credential names none. */
    public String vo() {
        return vos.isEmpty() ? null : vos.get(0);
    }

    public boolean hasRole(String role) {
        return roles.contains(role);
    }

    /**
     * FTS3's delegation id, as fts-rest computes it so a user's delegated proxy is found again whichever
     * FTS3-compatible server computes it: the first 16 hex digits of SHA-1 over the DN followed by every FQAN for
     * certificates, over the issuer followed by the subject for tokens.
     */
    public String delegationId() {
        return method == AuthMethod.OAUTH2 ? sha1Prefix(issuer, subject) : sha1Prefix(dn, String.join("", fqans));
    }

    private static String sha1Prefix(String first, String second) {
        try {
            MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
            sha1.update(String.valueOf(first).getBytes(StandardCharsets.UTF_8));
            sha1.update(String.valueOf(second).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(sha1.digest()).substring(0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is part of every JDK", e);
        }
    }
}
