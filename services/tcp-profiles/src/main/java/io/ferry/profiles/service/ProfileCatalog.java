package io.ferry.profiles.service;

import io.ferry.problem.ProblemException;
import io.ferry.profiles.model.ProfileSettings;
import io.ferry.profiles.repository.Profile;
import io.ferry.profiles.repository.ProfileVersion;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The current version of every profile, loaded at once so include chains resolve in memory (a site has tens of
 * profiles, not thousands).
 */
public record ProfileCatalog(Map<String, Profile> profiles, Map<String, ProfileVersion> current) {

    /** A profile with its include chain resolved: the merged settings and the chain, child first. */
    public record Resolved(Profile profile, ProfileVersion version, ProfileSettings settings, List<String> chain,
                           Map<String, ProfileVersion> layers) {
    }

    public Resolved resolve(String name) {
        return resolve(name, null);
    }

    /** Resolves {@code name} (or, if given, that specific version of it) over its include chain. */
    public Resolved resolve(String name, ProfileVersion pinned) {
        Profile p = profiles.get(name);
        ProfileVersion v = pinned != null ? pinned : current.get(name);
        if (p == null || v == null) {
            throw ProblemException.notFound("profile '" + name + "'");
        }
        List<String> chain = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        ProfileSettings merged = ProfileSettings.empty();
        List<ProfileSettings> layers = new ArrayList<>();
        Map<String, ProfileVersion> versions = new java.util.LinkedHashMap<>();
        ProfileVersion step = v;
        String stepName = name;
        while (step != null) {
            if (!seen.add(stepName)) {
                throw ProblemException.unprocessable("INCLUDE_CYCLE", "profile includes form a cycle: "
                        + String.join(" -> ", seen) + " -> " + stepName, Map.of("chain", List.copyOf(seen)));
            }
            chain.add(stepName);
            layers.add(step.settings());
            versions.put(stepName, step);
            stepName = step.includeProfile;
            step = stepName == null ? null : current.get(stepName);
            if (stepName != null && step == null) {
                throw ProblemException.unprocessable("INCLUDE_MISSING", "profile '" + chain.get(chain.size() - 1)
                        + "' includes '" + stepName + "', which does not exist", Map.of());
            }
        }
        for (int i = layers.size() - 1; i >= 0; i--) {
            merged = layers.get(i).over(merged);
        }
        return new Resolved(p, v, merged, chain, versions);
    }
}
