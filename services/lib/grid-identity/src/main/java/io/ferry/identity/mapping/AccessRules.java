package io.ferry.identity.mapping;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a credential's scopes, groups and FQANs grant in Ferry, as configured. Nothing is granted by default:
 * a WLCG token's {@code fts} scope or an ATLAS production FQAN means something in Ferry only once a rule says so.
 *
 * @param scopeRoles roles per WLCG scope; a key without a path ({@code storage.read}) matches every path of that
 *                   scope ({@code storage.read:/atlas/data}), a key with one only that exact value
 * @param groupRoles roles per token group ({@code wlcg.groups} values such as {@code /atlas/production}), exact
 * @param fqanRoles  roles per VOMS FQAN in its short form ({@code /atlas}, {@code /atlas/Role=production}), exact
 * @param dnRoles    roles per certificate DN in OpenSSL form (operators, robot certificates of other services)
 */
public record AccessRules(Map<String, Set<String>> scopeRoles, Map<String, Set<String>> groupRoles,
                          Map<String, Set<String>> fqanRoles, Map<String, Set<String>> dnRoles) {

    /** WLCG compute scopes are for compute elements; they say nothing about transfers. */
    private static final String COMPUTE_PREFIX = "compute.";

    public AccessRules {
        scopeRoles = Map.copyOf(scopeRoles);
        groupRoles = Map.copyOf(groupRoles);
        fqanRoles = Map.copyOf(fqanRoles);
        dnRoles = Map.copyOf(dnRoles);
    }

    public static AccessRules none() {
        return new AccessRules(Map.of(), Map.of(), Map.of(), Map.of());
    }

    /**
     * Roles for a token's scopes. With {@code ownScopesAreRoles} (Ferry's own issuer, whose scopes are Ferry's roles
     * already) an unmapped scope is a role itself; from any other issuer an unmapped scope grants nothing, so a
     * foreign token cannot claim {@code transfer:admin} by asking its issuer for a scope of that name.
     */
    public Set<String> rolesForScopes(Collection<String> scopes, boolean ownScopesAreRoles) {
        Set<String> roles = new TreeSet<>();
        for (String scope : scopes) {
            if (scope.startsWith(COMPUTE_PREFIX)) {
                continue;
            }
            Set<String> mapped = scopeRoles.get(scope);
            if (mapped == null) {
                int colon = scope.indexOf(':');
                mapped = colon > 0 && scope.startsWith("/", colon + 1) ? scopeRoles.get(scope.substring(0, colon)) : null;
            }
            if (mapped != null) {
                roles.addAll(mapped);
            } else if (ownScopesAreRoles) {
                roles.add(scope);
            }
        }
        return roles;
    }

    public Set<String> rolesForGroups(Collection<String> groups) {
        Set<String> roles = new TreeSet<>();
        for (String group : groups) {
            roles.addAll(groupRoles.getOrDefault(group, Set.of()));
        }
        return roles;
    }

    public Set<String> rolesForFqans(Collection<String> fqans) {
        Set<String> roles = new TreeSet<>();
        for (String fqan : fqans) {
            roles.addAll(fqanRoles.getOrDefault(shortFqan(fqan), Set.of()));
        }
        return roles;
    }

    public Set<String> rolesForDn(String dn) {
        return new TreeSet<>(dnRoles.getOrDefault(dn, Set.of()));
    }

    /**
     * An FQAN without its empty parts: {@code /atlas/Role=NULL/Capability=NULL} is {@code /atlas},
     * {@code /atlas/Role=production/Capability=NULL} is {@code /atlas/Role=production}.
     */
    public static String shortFqan(String fqan) {
        StringBuilder out = new StringBuilder();
        for (String part : fqan.split("/")) {
            if (part.isEmpty() || part.equalsIgnoreCase("Role=NULL") || part.equalsIgnoreCase("Capability=NULL")) {
                continue;
            }
            out.append('/').append(part);
        }
        return out.length() == 0 ? fqan : out.toString();
    }

    /** The VO a group or FQAN belongs to: its first component ({@code /atlas/production} is {@code atlas}). */
    public static String voOf(String groupOrFqan) {
        String trimmed = groupOrFqan.startsWith("/") ? groupOrFqan.substring(1) : groupOrFqan;
        int slash = trimmed.indexOf('/');
        String vo = slash < 0 ? trimmed : trimmed.substring(0, slash);
        return vo.isEmpty() || vo.contains("=") ? null : vo;
    }

    /** The distinct VOs of {@code groupsOrFqans}, in order of first appearance. */
    public static Set<String> vosOf(Collection<String> groupsOrFqans) {
        Set<String> vos = new LinkedHashSet<>();
        for (String g : groupsOrFqans) {
            String vo = voOf(g);
            if (vo != null) {
                vos.add(vo);
            }
        }
        return vos;
    }
}
