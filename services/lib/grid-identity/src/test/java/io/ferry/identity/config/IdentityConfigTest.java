package io.ferry.identity.config;

import io.ferry.identity.mapping.AccessRules;
import io.ferry.identity.token.TrustedIssuer;
import io.ferry.identity.x509.TrustSettings;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IdentityConfigTest {

    static final String ROBOT = "/DC=ch/DC=cern/OU=Organic Units/OU=Users/CN=ddmadmin/CN=531497/CN=Robot: ATLAS Data Management";

    @Test
    void theReadmesAtlasExampleMeansWhatTheReadmeSays() throws Exception {
        Map<String, String> example = readmeExample();
        example.put("mp.jwt.verify.issuer", "https://ferry.local/issuer");
        IdentityConfig config = config(example);

        List<TrustedIssuer> issuers = IdentitySettings.issuers(config);
        TrustedIssuer iam = issuers.get(0);
        assertEquals("https://atlas-auth.cern.ch/", iam.issuer());
        assertEquals(new TrustedIssuer.VoRule.FromGroups(), iam.vo());
        assertEquals(Set.of("https://fts.example.org:8446", "https://fts.example.org", TrustedIssuer.ANY_AUDIENCE), iam.audiences());
        TrustedIssuer dev = issuers.get(1);
        assertEquals("https://ferry.local/issuer", dev.issuer());
        assertEquals(java.net.URI.create("file:/etc/ferry/jwt/public.pem"), dev.keys());
        assertEquals(new TrustedIssuer.VoRule.FromClaim("vo"), dev.vo());
        assertEquals(Set.of("ferry"), dev.audiences());
        assertEquals(Optional.of("site"), dev.site());
        assertTrue(dev.ownScopesAreRoles());

        AccessRules rules = IdentitySettings.rules(config);
        assertEquals(Set.of("transfer:read", "transfer:submit"), rules.rolesForGroups(List.of("/atlas", "/atlas/production")));
        assertEquals(Set.of("transfer:read"), rules.rolesForGroups(List.of("/atlas")));
        assertEquals(Set.of("transfer:submit"), rules.rolesForFqans(List.of("/atlas/Role=production/Capability=NULL")));
        assertEquals(Set.of("transfer:read", "transfer:submit"), rules.rolesForScopes(List.of("fts"), false));
        assertEquals(Set.of("transfer:read"), rules.rolesForScopes(List.of("storage.read:/atlasdatadisk/rucio"), false));
        assertEquals(Set.of("transfer:admin"), rules.rolesForDn(ROBOT));

        TrustSettings trust = IdentitySettings.trust(config).orElseThrow();
        assertEquals(Path.of("/etc/grid-security/vomsdir"), trust.vomsdir());
        assertEquals(TrustSettings.CrlMode.REQUIRE, trust.crls());
        assertEquals(TrustSettings.NamespaceMode.IF_PRESENT, trust.namespaces());
        assertEquals(Set.of("atlas"), trust.acceptedVos());
    }

    @Test
    void certificatesAreOffUnlessEnabled() {
        assertTrue(IdentitySettings.trust(config(Map.of())).isEmpty());
    }

    @Test
    void aGrantMustMatchSomething() {
        IdentityConfig config = config(Map.of("ferry.identity.grants.nothing.roles", "transfer:admin"));
        assertThrows(IllegalArgumentException.class, () -> IdentitySettings.rules(config));
    }

    @Test
    void anIssuerWithAFixedVoHasNoVoClaim() {
        IdentityConfig config = config(Map.of("ferry.identity.audiences", "ferry",
                "ferry.identity.issuers.x.url", "https://x/", "ferry.identity.issuers.x.jwks", "https://x/jwk",
                "ferry.identity.issuers.x.vo", "atlas", "ferry.identity.issuers.x.vo-claim", "vo"));
        assertThrows(IllegalArgumentException.class, () -> IdentitySettings.issuers(config));
    }

    static IdentityConfig config(Map<String, String> properties) {
        return new SmallRyeConfigBuilder().addDefaultInterceptors().withMapping(IdentityConfig.class)
                .withSources(new PropertiesConfigSource(properties, "test", 100)).build()
                .getConfigMapping(IdentityConfig.class);
    }

    /** The {@code properties} block of the README's worked example, read as application.properties is. */
    static Map<String, String> readmeExample() throws Exception {
        String readme = Files.readString(Path.of("README.md"));
        int section = readme.indexOf("### Worked example");
        int start = readme.indexOf("```properties\n", section) + "```properties\n".length();
        String block = readme.substring(start, readme.indexOf("```", start));
        Properties p = new Properties();
        p.load(new StringReader(block));
        Map<String, String> out = new HashMap<>();
        p.stringPropertyNames().forEach(k -> out.put(k, p.getProperty(k)));
        return out;
    }
}
