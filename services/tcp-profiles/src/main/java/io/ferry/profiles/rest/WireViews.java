package io.ferry.profiles.rest;

import io.ferry.profiles.api.Effective;
import io.ferry.profiles.api.HostView;
import io.ferry.profiles.api.ObservationView;
import io.ferry.profiles.api.RuleView;
import io.ferry.profiles.model.NicSpeed;
import io.ferry.profiles.repository.AssignmentRule;
import io.ferry.profiles.repository.Host;
import io.ferry.profiles.repository.HostObservation;
import io.ferry.profiles.service.ProfileCatalog;

/** Stored hosts, observations, rules and resolved profiles as clients read them. */
final class WireViews {

    private WireViews() {
    }

    static HostView host(Host h) {
        return new HostView(h.name, h.site, h.storageElement, NicSpeed.format(h.nicSpeedMbps), h.nicSpeedMbps, h.mtu,
                h.kernel, h.labels, h.updatedAt, h.updatedBy, h.version);
    }

    static RuleView rule(AssignmentRule r) {
        return new RuleView(r.name, r.profile, r.priority, r.site, r.selector(), r.createdAt, r.createdBy);
    }

    static ObservationView observation(HostObservation o) {
        return new ObservationView(o.id, o.observedAt, o.receivedAt, o.receivedBy, o.sysctls.size(), o.interfaces);
    }

    static Effective effective(ProfileCatalog.Resolved r) {
        return new Effective(r.profile().name, r.version().version, r.chain(), r.settings().sysctls(),
                r.settings().interfaceSettings());
    }
}
