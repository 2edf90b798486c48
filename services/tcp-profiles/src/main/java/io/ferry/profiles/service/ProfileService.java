package io.ferry.profiles.service;

import io.ferry.problem.Problem;
import io.ferry.problem.ProblemException;
import io.ferry.profiles.model.ProfileSettings;
import io.ferry.profiles.model.SysctlCatalog;
import io.ferry.profiles.repository.AssignmentRule;
import io.ferry.profiles.repository.Profile;
import io.ferry.profiles.repository.ProfileVersion;
import io.ferry.profiles.api.ProfileInput;
import io.ferry.profiles.api.ProfileView;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/** Profiles: every change a new version with its diff, include chains checked, rollback to any version. */
@ApplicationScoped
public class ProfileService {

    public static final String NAME_PATTERN = "[a-z0-9][a-z0-9._-]{0,99}";

    final SiteAdmin caller;

    @Inject
    public ProfileService(SiteAdmin caller) {
        this.caller = caller;
    }

    /** The current version of every profile (call inside a session). */
    public Uni<ProfileCatalog> loadCatalog() {
        return Profile.<Profile>listAll().flatMap(profiles -> ProfileVersion.<ProfileVersion>find(
                        "select v from ProfileVersion v, Profile p where v.profile = p.name and v.version = p.currentVersion")
                .list().map(versions -> new ProfileCatalog(
                        profiles.stream().collect(Collectors.toMap(p -> p.name, Function.identity())),
                        versions.stream().collect(Collectors.toMap(v -> v.profile, Function.identity())))));
    }

    @WithSession
    public Uni<ProfileCatalog> catalog() {
        return loadCatalog();
    }

    @WithSession
    public Uni<List<ProfileView>> list(String site) {
        return loadCatalog().map(cat -> cat.profiles().values().stream()
                .filter(p -> site == null || site.equals(p.site) || p.site == null)
                .sorted(java.util.Comparator.comparing(p -> p.name))
                .map(p -> ProfileViews.of(p, cat.current().get(p.name))).toList());
    }

    /** The current version of a profile. */
    @WithSession
    public Uni<ProfileView> current(String name) {
        return Profile.<Profile>findById(name)
                .onItem().ifNull().failWith(() -> ProblemException.notFound("profile '" + name + "'"))
                .flatMap(p -> ProfileVersion.<ProfileVersion>find("profile = ?1 and version = ?2", name, p.currentVersion)
                        .firstResult().map(v -> ProfileViews.of(p, v)));
    }

    @WithSession
    public Uni<List<ProfileView>> versions(String name) {
        return Profile.<Profile>findById(name)
                .onItem().ifNull().failWith(() -> ProblemException.notFound("profile '" + name + "'"))
                .flatMap(p -> ProfileVersion.<ProfileVersion>find("profile = ?1 order by version desc", name).list()
                        .map(vs -> vs.stream().map(v -> ProfileViews.of(p, v)).toList()));
    }

    @WithSession
    public Uni<ProfileView> version(String name, int version) {
        return Profile.<Profile>findById(name)
                .onItem().ifNull().failWith(() -> ProblemException.notFound("profile '" + name + "'"))
                .flatMap(p -> ProfileVersion.<ProfileVersion>find("profile = ?1 and version = ?2", name, version).firstResult()
                        .onItem().ifNull().failWith(() -> ProblemException.notFound("version " + version + " of profile '" + name + "'"))
                        .map(v -> ProfileViews.of(p, v)));
    }

    /** Resolves a profile (optionally an older version) over its includes. */
    @WithSession
    public Uni<ProfileCatalog.Resolved> effective(String name, Integer version) {
        return loadCatalog().flatMap(cat -> version == null ? Uni.createFrom().item(cat.resolve(name))
                : ProfileVersion.<ProfileVersion>find("profile = ?1 and version = ?2", name, version).firstResult()
                .onItem().ifNull().failWith(() -> ProblemException.notFound("version " + version + " of profile '" + name + "'"))
                .map(v -> cat.resolve(name, v)));
    }

    /** Stores a new version of {@code name} (creating the profile); an unchanged profile keeps its version. */
    @WithSpan
    @WithTransaction
    public Uni<ProfileView> put(String name, ProfileInput in) {
        return write(name, in);
    }

    @WithSpan
    @WithTransaction
    public Uni<ProfileView> rollback(String name, int toVersion, String comment) {
        return ProfileVersion.<ProfileVersion>find("profile = ?1 and version = ?2", name, toVersion).firstResult()
                .onItem().ifNull().failWith(() -> ProblemException.notFound("version " + toVersion + " of profile '" + name + "'"))
                .flatMap(old -> write(name, new ProfileInput(old.summary, old.includeProfile, null, old.sysctls,
                        old.interfaceSettings, comment == null || comment.isBlank() ? "rollback to version " + toVersion : comment)));
    }

    @WithSpan
    @WithTransaction
    public Uni<Void> delete(String name) {
        return loadCatalog().flatMap(cat -> {
            Profile p = cat.profiles().get(name);
            if (p == null) {
                throw ProblemException.notFound("profile '" + name + "'");
            }
            caller.requireOwner(p.site);
            List<String> includers = cat.current().values().stream()
                    .filter(v -> name.equals(v.includeProfile)).map(v -> v.profile).sorted().toList();
            return AssignmentRule.<AssignmentRule>find("profile", name).list().flatMap(rules -> {
                if (!includers.isEmpty() || !rules.isEmpty()) {
                    throw ProblemException.conflict("PROFILE_IN_USE", "profile '" + name + "' is still used by rules "
                            + rules.stream().map(r -> r.name).toList() + " and included by " + includers);
                }
                return p.delete();
            });
        });
    }

    private Uni<ProfileView> write(String name, ProfileInput in) {
        if (!name.matches(NAME_PATTERN)) {
            throw ProblemException.badRequest("name", "profile names are lower-case letters, digits, '.', '_' and '-'");
        }
        ProfileSettings own = new ProfileSettings(in.sysctls(), in.interfaceSettings());
        List<Problem.FieldError> errors = SysctlCatalog.validate(own);
        if (!errors.isEmpty()) {
            throw ProblemException.badRequest("INVALID_PROFILE", errors.size() + " invalid setting(s); nothing was stored", errors);
        }
        return loadCatalog().flatMap(cat -> {
            Profile existing = cat.profiles().get(name);
            String requestedSite = in.site() == null || in.site().isBlank() ? null : in.site();
            if (existing != null && requestedSite != null && !requestedSite.equals(existing.site)) {
                throw ProblemException.badRequest("site", "a profile's site cannot change (it is "
                        + (existing.site == null ? "global" : existing.site) + ")");
            }
            String site = existing != null ? existing.site : requestedSite;
            caller.requireOwner(site);
            if (in.include() != null) {
                Profile parent = cat.profiles().get(in.include());
                if (parent == null) {
                    throw ProblemException.unprocessable("INCLUDE_MISSING", "included profile '" + in.include() + "' does not exist", Map.of());
                }
                if (parent.site != null && !parent.site.equals(site)) {
                    throw ProblemException.unprocessable("INCLUDE_FOREIGN", "a profile may include global profiles and profiles of its own site only", Map.of());
                }
            }
            OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
            ProfileVersion previous = existing == null ? null : cat.current().get(name);
            ProfileVersion v = new ProfileVersion();
            v.profile = name;
            v.version = existing == null ? 1 : existing.currentVersion + 1;
            v.summary = in.summary();
            v.includeProfile = in.include();
            v.sysctls = own.sysctls();
            v.interfaceSettings = own.interfaceSettings();
            v.diff = diff(previous, v);
            v.comment = in.comment();
            v.createdAt = now;
            v.createdBy = caller.subject();
            Profile p = existing != null ? existing : new Profile();
            if (existing == null) {
                p.name = name;
                p.site = site;
                p.createdAt = now;
                p.createdBy = caller.subject();
            }
            // The new version must resolve (no cycle) and its merged settings must be valid too.
            Map<String, Profile> profiles = new HashMap<>(cat.profiles());
            profiles.put(name, p);
            Map<String, ProfileVersion> current = new HashMap<>(cat.current());
            current.put(name, v);
            ProfileCatalog.Resolved resolved = new ProfileCatalog(profiles, current).resolve(name);
            List<Problem.FieldError> merged = SysctlCatalog.validate(resolved.settings());
            if (!merged.isEmpty()) {
                throw ProblemException.unprocessable("INVALID_EFFECTIVE_PROFILE",
                        "with its includes the profile would be invalid: " + merged.get(0).field() + " " + merged.get(0).message(),
                        Map.of("errors", merged));
            }
            if (previous != null && v.diff.isEmpty()) {
                return Uni.createFrom().item(ProfileViews.of(existing, previous));
            }
            p.currentVersion = v.version;
            return p.<Profile>persist().flatMap(saved -> v.<ProfileVersion>persist()).map(saved -> ProfileViews.of(p, saved));
        });
    }

    static Map<String, Map<String, String>> diff(ProfileVersion before, ProfileVersion after) {
        Map<String, Map<String, String>> out = new TreeMap<>();
        Map<String, String> a = flatten(before);
        Map<String, String> b = flatten(after);
        TreeSet<String> keys = new TreeSet<>(a.keySet());
        keys.addAll(b.keySet());
        for (String k : keys) {
            String from = a.get(k);
            String to = b.get(k);
            if (!Objects.equals(from, to)) {
                Map<String, String> change = new HashMap<>();
                change.put("from", from);
                change.put("to", to);
                out.put(k, change);
            }
        }
        return out;
    }

    private static Map<String, String> flatten(ProfileVersion v) {
        Map<String, String> m = new TreeMap<>();
        if (v == null) {
            return m;
        }
        v.sysctls.forEach((k, val) -> m.put("sysctls." + k, String.join(" ", val.trim().split("\\s+"))));
        v.interfaceSettings.forEach((k, val) -> m.put("interface." + k, String.valueOf(val)));
        if (v.includeProfile != null) {
            m.put("include", v.includeProfile);
        }
        if (v.summary != null) {
            m.put("summary", v.summary);
        }
        return m;
    }
}
