package io.ferry.profiles.service;

import io.ferry.problem.ProblemException;
import io.ferry.profiles.api.EffectiveProfile;
import io.ferry.profiles.model.ProfileRenderer;
import io.ferry.profiles.repository.ProfileVersion;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.List;

/** A host's effective profile in the form its tooling applies: sysctl.d, TuneD, a Tuned CR, or JSON. */
@ApplicationScoped
public class RenderService {

    public record Rendered(String mediaType, Object body) {
    }

    final AssignmentService assignments;

    @Inject
    public RenderService(AssignmentService assignments) {
        this.assignments = assignments;
    }

    @WithSpan
    @WithSession
    public Uni<Rendered> render(String hostName, String format) {
        String f = format == null ? "json" : format;
        if (!List.of("json", "sysctl", "tuned", "tuned-cr").contains(f)) {
            throw ProblemException.badRequest("format", "one of json, sysctl, tuned, tuned-cr");
        }
        return assignments.effective(hostName).map(a -> {
            if (a.profile() == null) {
                throw new ProblemException(io.ferry.problem.Problem.of(404, "NO_MATCHING_RULE",
                        "no assignment rule matches host '" + hostName + "'"));
            }
            ProfileCatalog.Resolved r = a.profile();
            if (f.equals("json")) {
                return new Rendered("application/json", new EffectiveProfile(a.host().name, a.host().site, r.profile().name,
                        r.version().version, r.chain(), a.rule().name, a.rule().priority, r.settings().sysctls(),
                        r.settings().interfaceSettings(), a.warnings()));
            }
            ProfileRenderer.Subject subject = subject(a);
            return switch (f) {
                case "sysctl" -> new Rendered("text/plain", ProfileRenderer.sysctl(subject));
                case "tuned" -> new Rendered("text/plain", ProfileRenderer.tuned(subject));
                default -> new Rendered("application/yaml", ProfileRenderer.tunedCr(subject));
            };
        });
    }

    static ProfileRenderer.Subject subject(AssignmentService.Assignment a) {
        // The chain's layers are the current versions the catalog resolved, child first.
        ProfileCatalog.Resolved r = a.profile();
        List<ProfileRenderer.Layer> layers = r.chain().stream().map(name -> {
            ProfileVersion v = name.equals(r.profile().name) ? r.version() : r.layers().get(name);
            return new ProfileRenderer.Layer(name, v.version, v.summary, v.includeProfile, v.settings());
        }).toList();
        return new ProfileRenderer.Subject(a.host().name, layers, r.settings(), a.rule().name, a.rule().priority, a.rule().selector());
    }
}
