package io.ferry.profiles.service;

import io.ferry.problem.Problem;
import io.ferry.problem.ProblemException;
import io.ferry.profiles.repository.Host;
import io.ferry.profiles.api.HostInput;
import io.ferry.profiles.model.NicSpeed;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** The host inventory: create, change, import and remove hosts, each write checked against the caller's site. */
@ApplicationScoped
public class HostService {

    final SiteAdmin caller;

    @Inject
    public HostService(SiteAdmin caller) {
        this.caller = caller;
    }

    @WithSession
    public Uni<List<Host>> list(String site, Map<String, String> labels) {
        StringBuilder where = new StringBuilder("1 = 1");
        Map<String, Object> params = new java.util.HashMap<>();
        if (site != null && !site.isBlank()) {
            where.append(" and site = :site");
            params.put("site", site);
        }
        // Label filtering happens in memory: the inventory of a site is hundreds of hosts, not millions.
        return Host.<Host>find(where + " order by name", params).list()
                .map(hosts -> hosts.stream().filter(h -> h.labels.entrySet().containsAll(labels.entrySet())).toList());
    }

    @WithSession
    public Uni<Host> get(String name) {
        return Host.<Host>findById(name).onItem().ifNull().failWith(() -> ProblemException.notFound("host '" + name + "'"));
    }

    @WithSpan
    @WithTransaction
    public Uni<Host> create(HostInput input) {
        Host host = fromInput(new Host(), input, "nicSpeed");
        caller.requireSite(host.site);
        return Host.<Host>findById(host.name).flatMap(existing -> {
            if (existing != null) {
                return Uni.createFrom().failure(ProblemException.conflict("HOST_EXISTS", "host '" + host.name + "' already exists"));
            }
            return host.persist();
        });
    }

    @WithSpan
    @WithTransaction
    public Uni<Host> update(String name, HostInput input) {
        if (!name.equals(input.name())) {
            throw ProblemException.badRequest("name", "must equal the host name in the path ('" + name + "')");
        }
        return get(name).map(host -> {
            caller.requireSite(host.site);
            Host changed = fromInput(host, input, "nicSpeed");
            caller.requireSite(changed.site);
            return changed;
        });
    }

    @WithSpan
    @WithTransaction
    public Uni<Void> delete(String name) {
        return get(name).flatMap(host -> {
            caller.requireSite(host.site);
            return host.delete();
        });
    }

    /**
     * Imports hosts all-or-nothing: every item is validated and authorised first, and a failing item is reported
     * with its index so a site can fix its file and send it again. Existing hosts are replaced.
     */
    @WithSpan
    @WithTransaction
    public Uni<List<Host>> importAll(List<HostInput> inputs) {
        List<Problem.FieldError> errors = new ArrayList<>();
        List<Host> hosts = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < inputs.size(); i++) {
            HostInput in = inputs.get(i);
            try {
                Host h = fromInput(new Host(), in, "[" + i + "].nicSpeed");
                caller.requireSite(h.site);
                if (!seen.add(h.name)) {
                    errors.add(new Problem.FieldError("[" + i + "].name", "duplicate host '" + h.name + "' in the import"));
                }
                hosts.add(h);
            } catch (ProblemException e) {
                if (e.problem().status() == 403) {
                    throw e;
                }
                e.problem().errors().forEach(f -> errors.add(new Problem.FieldError(f.field(), f.message())));
            }
        }
        if (!errors.isEmpty()) {
            throw ProblemException.badRequest("INVALID_INPUT", errors.size() + " host(s) are invalid; nothing was imported", errors);
        }
        Uni<Void> chain = Uni.createFrom().voidItem();
        List<Host> saved = new ArrayList<>();
        for (Host h : hosts) {
            chain = chain.flatMap(v -> Host.<Host>findById(h.name)).flatMap(existing -> {
                if (existing != null) {
                    caller.requireSite(existing.site);
                }
                Host target = existing == null ? h : copyInto(existing, h);
                return target.<Host>persist().invoke(saved::add).replaceWithVoid();
            });
        }
        return chain.flatMap(v -> Panache.flush()).replaceWith(saved);
    }

    private Host fromInput(Host host, HostInput in, String speedField) {
        host.name = in.name().toLowerCase();
        host.site = in.site();
        host.storageElement = in.storageElement();
        host.nicSpeedMbps = NicSpeed.parseMbps(speedField, in.nicSpeed());
        host.mtu = in.mtu() == null ? 1500 : in.mtu();
        host.kernel = in.kernel();
        host.labels = in.labels() == null ? new TreeMap<>() : new TreeMap<>(in.labels());
        host.updatedAt = OffsetDateTime.now(ZoneOffset.UTC);
        host.updatedBy = caller.subject();
        return host;
    }

    private static Host copyInto(Host target, Host source) {
        target.site = source.site;
        target.storageElement = source.storageElement;
        target.nicSpeedMbps = source.nicSpeedMbps;
        target.mtu = source.mtu;
        target.kernel = source.kernel;
        target.labels = source.labels;
        target.updatedAt = source.updatedAt;
        target.updatedBy = source.updatedBy;
        return target;
    }
}
