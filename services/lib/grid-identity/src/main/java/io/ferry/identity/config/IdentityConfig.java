package io.ferry.identity.config;

import io.ferry.identity.x509.TrustSettings;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code ferry.identity.*}: which token issuers and which grid CAs and VOMS servers a service trusts, and what
 * their credentials grant. The module's README documents every key with an ATLAS-like example.
 */
@ConfigMapping(prefix = "ferry.identity")
public interface IdentityConfig {

    /** Audiences accepted from every issuer that names none of its own: the service's own URL and names. */
    Optional<List<String>> audiences();

    /** How far issuers' and the service's clocks may differ when {@code exp}, {@code nbf} and {@code iat} are checked. */
    @WithDefault("PT60S")
    Duration clockSkew();

    /** How issuers' key sets are cached. */
    Jwks jwks();

    /** The trusted token issuers, by a name of the operator's choosing. */
    Map<String, Issuer> issuers();

    /**
     * What credentials grant, by a rule name of the operator's choosing. Values, not keys, hold scopes, groups,
     * FQANs and DNs, because these contain characters ({@code =}, {@code /}, spaces) that property keys cannot.
     */
    Map<String, Grant> grants();

    /** Client certificates and proxies. */
    X509 x509();

    interface Jwks {
        /** Keys are fetched again after this long even when every token's key is known. */
        @WithDefault("PT10M")
        Duration maxAge();

        /** An unknown key id fetches the key set again at once, but not more often than this. */
        @WithDefault("PT30S")
        Duration minRefetchInterval();
    }

    interface Issuer {
        /** The {@code iss} value its tokens carry. */
        String url();

        /** Its JWKS: an {@code https:} URL or a {@code file:}; a {@code file:} PEM public key for Ferry's dev issuer. */
        URI jwks();

        /** Audiences accepted from this issuer instead of {@code ferry.identity.audiences}. */
        Optional<List<String>> audiences();

        /** Whether WLCG's {@code https://wlcg.cern.ch/jwt/v1/any} audience is accepted from this issuer. */
        @WithDefault("true")
        boolean acceptAnyAudience();

        /** Every token of this issuer acts for this VO (an experiment's own IAM). */
        Optional<String> vo();

        /** A claim naming the VO (Ferry's dev issuer: {@code vo}); with neither, the VO comes from {@code wlcg.groups}. */
        Optional<String> voClaim();

        /** A claim naming the site a site administrator administers (Ferry's dev issuer: {@code site}). */
        Optional<String> siteClaim();

        /** Whether this issuer's scope values are Ferry roles themselves: only for Ferry's own issuer. */
        @WithDefault("false")
        boolean ownScopes();
    }

    /**
     * One rule: a credential with this WLCG scope, token group, VOMS FQAN or certificate DN (one or more of them)
     * gets these roles.
     */
    interface Grant {
        /** A WLCG scope; without a path ({@code storage.read}) it matches every path of that scope. */
        Optional<String> scope();

        /** A token group ({@code wlcg.groups} value), such as {@code /atlas/production}. */
        Optional<String> group();

        /** A VOMS FQAN in short form, such as {@code /atlas/Role=production}. */
        Optional<String> fqan();

        /** A certificate DN in OpenSSL form. */
        Optional<String> dn();

        /** The Ferry roles granted ({@code transfer:submit}, {@code transfer:admin}, ...). */
        List<String> roles();
    }

    interface X509 {
        /** Whether client certificates and proxies are accepted. */
        @WithDefault("false")
        boolean enabled();

        @WithDefault("/etc/grid-security/certificates")
        Path trustAnchors();

        @WithDefault("/etc/grid-security/vomsdir")
        Path vomsdir();

        /** {@code require}: every CA needs a valid CRL; {@code if-valid}: used when present and valid; {@code ignore}. */
        @WithDefault("if-valid")
        TrustSettings.CrlMode crls();

        /** {@code require}, {@code if-present} or {@code ignore} the CAs' signing policies and namespaces files. */
        @WithDefault("if-present")
        TrustSettings.NamespaceMode namespaces();

        /** How often the trust anchors, CRLs and vomsdir are read again. */
        @WithDefault("PT1H")
        Duration refresh();

        /** The VOs served here; by default every VO the vomsdir trusts. */
        Optional<List<String>> vos();

        /**
         * How long a verified chain is believed without validating it again: clients poll with the same proxy, and
         * a validation with CRLs costs milliseconds of CPU. A revocation takes effect after at most this long.
         */
        @WithDefault("PT60S")
        Duration cacheFor();
    }
}
