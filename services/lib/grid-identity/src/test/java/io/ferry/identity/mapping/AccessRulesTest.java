package io.ferry.identity.mapping;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class AccessRulesTest {

    final AccessRules rules = new AccessRules(
            Map.of("storage.read", Set.of("transfer:read"), "storage.modify:/atlas/scratch", Set.of("transfer:submit")),
            Map.of(), Map.of("/atlas/Role=production", Set.of("transfer:submit")), Map.of());

    @Test
    void aScopeWithoutPathMatchesEveryPathAScopeWithOneOnlyItself() {
        assertEquals(Set.of("transfer:read"), rules.rolesForScopes(List.of("storage.read:/atlas/data"), false));
        assertEquals(Set.of("transfer:read"), rules.rolesForScopes(List.of("storage.read:/"), false));
        assertEquals(Set.of("transfer:submit"), rules.rolesForScopes(List.of("storage.modify:/atlas/scratch"), false));
        assertEquals(Set.of(), rules.rolesForScopes(List.of("storage.modify:/atlas/data"), false));
    }

    @Test
    void computeScopesNeverCount() {
        assertEquals(Set.of(), rules.rolesForScopes(List.of("compute.create", "compute.read"), true));
    }

    @Test
    void unmappedScopesAreRolesOnlyForFerrysOwnIssuer() {
        assertEquals(Set.of("transfer:admin"), rules.rolesForScopes(List.of("transfer:admin"), true));
        assertEquals(Set.of(), rules.rolesForScopes(List.of("transfer:admin"), false));
    }

    @Test
    void fqansMatchInTheirShortForm() {
        assertEquals("/atlas", AccessRules.shortFqan("/atlas/Role=NULL/Capability=NULL"));
        assertEquals("/atlas/Role=production", AccessRules.shortFqan("/atlas/Role=production/Capability=NULL"));
        assertEquals(Set.of("transfer:submit"), rules.rolesForFqans(List.of("/atlas/Role=production/Capability=NULL")));
    }

    @Test
    void theVoIsTheFirstComponent() {
        assertEquals("atlas", AccessRules.voOf("/atlas/production"));
        assertEquals("atlas", AccessRules.voOf("/atlas/Role=production"));
        assertNull(AccessRules.voOf("/Role=x"));
        assertEquals(Set.of("atlas", "cms"), AccessRules.vosOf(List.of("/atlas", "/atlas/production", "/cms")));
    }
}
