package io.ferry.profiles.service;

import io.ferry.problem.Problem;
import io.ferry.problem.ProblemException;
import io.ferry.profiles.model.Selector;
import io.ferry.profiles.repository.AssignmentRule;
import io.ferry.profiles.repository.Host;
import io.ferry.profiles.api.RuleInput;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/** Assignment rules and the effective profile of a host. */
@ApplicationScoped
public class AssignmentService {

    /** The profile a host gets, the rule that chose it, and rules that tied with it. */
    public record Assignment(Host host, AssignmentRule rule, ProfileCatalog.Resolved profile, List<String> warnings) {
    }

    final SiteAdmin caller;

    final ProfileService profiles;

    @Inject
    public AssignmentService(SiteAdmin caller, ProfileService profiles) {
        this.caller = caller;
        this.profiles = profiles;
    }

    @WithSession
    public Uni<List<AssignmentRule>> list() {
        return AssignmentRule.list("order by priority, id");
    }

    @WithSpan
    @WithTransaction
    public Uni<AssignmentRule> put(String name, RuleInput in) {
        if (!name.matches(ProfileService.NAME_PATTERN)) {
            throw ProblemException.badRequest("name", "rule names are lower-case letters, digits, '.', '_' and '-'");
        }
        List<Problem.FieldError> errors = Selector.validate(in.match(), "match");
        if (!errors.isEmpty()) {
            throw ProblemException.badRequest("INVALID_SELECTOR", "the selector is malformed", errors);
        }
        String site = in.site() == null || in.site().isBlank() ? null : in.site();
        caller.requireOwner(site);
        return profiles.loadCatalog().flatMap(cat -> {
            var profile = cat.profiles().get(in.profile());
            if (profile == null) {
                throw ProblemException.unprocessable("PROFILE_MISSING", "profile '" + in.profile() + "' does not exist", java.util.Map.of());
            }
            if (profile.site != null && !profile.site.equals(site)) {
                throw ProblemException.unprocessable("PROFILE_FOREIGN", "a rule may assign global profiles and its own site's profiles only", java.util.Map.of());
            }
            return AssignmentRule.<AssignmentRule>find("name", name).firstResult().flatMap(existing -> {
                if (existing != null) {
                    caller.requireOwner(existing.site);
                }
                AssignmentRule r = existing != null ? existing : new AssignmentRule();
                r.name = name;
                r.profile = in.profile();
                r.priority = in.priority();
                r.site = site;
                r.selector(in.match());
                if (existing == null) {
                    r.createdAt = OffsetDateTime.now(ZoneOffset.UTC);
                }
                r.createdBy = caller.subject();
                return r.persist();
            });
        });
    }

    @WithSpan
    @WithTransaction
    public Uni<Void> delete(String name) {
        return AssignmentRule.<AssignmentRule>find("name", name).firstResult()
                .onItem().ifNull().failWith(() -> ProblemException.notFound("rule '" + name + "'"))
                .flatMap(r -> {
                    caller.requireOwner(r.site);
                    return r.delete();
                });
    }

    /** The effective profile of {@code hostName}: lowest priority number wins; the oldest rule breaks ties. */
    @WithSpan
    @WithSession
    public Uni<Assignment> effective(String hostName) {
        return Host.<Host>findById(hostName)
                .onItem().ifNull().failWith(() -> ProblemException.notFound("host '" + hostName + "'"))
                .flatMap(host -> chooser().map(choose -> choose.apply(host)));
    }

    /** Loads the profiles and rules once, for choosing the profile of many hosts (call inside a session). */
    public Uni<java.util.function.Function<Host, Assignment>> chooser() {
        return profiles.loadCatalog().flatMap(cat -> AssignmentRule.<AssignmentRule>list("order by priority, id")
                .map(rules -> host -> choose(host, rules, cat)));
    }

    static Assignment choose(Host host, List<AssignmentRule> rulesByPriority, ProfileCatalog catalog) {
        Selector.Target target = new Selector.Target(host.name, host.site, host.storageElement, host.labels);
        AssignmentRule winner = null;
        List<String> warnings = new ArrayList<>();
        for (AssignmentRule r : rulesByPriority) {
            boolean applies = (r.site == null || r.site.equals(host.site)) && Selector.matches(r.selector(), target);
            if (!applies) {
                continue;
            }
            if (winner == null) {
                winner = r;
            } else if (r.priority == winner.priority) {
                warnings.add("rule '" + r.name + "' (profile " + r.profile + ") ties with '" + winner.name
                        + "' at priority " + r.priority + "; the older rule '" + winner.name + "' wins");
            } else {
                break;
            }
        }
        ProfileCatalog.Resolved resolved = winner == null ? null : catalog.resolve(winner.profile);
        return new Assignment(host, winner, resolved, warnings);
    }
}
