package io.ferry.profiles.service;

import io.ferry.profiles.api.ProfileView;
import io.ferry.profiles.repository.Profile;
import io.ferry.profiles.repository.ProfileVersion;

/** A stored profile version as clients read it. */
final class ProfileViews {

    private ProfileViews() {
    }

    static ProfileView of(Profile p, ProfileVersion v) {
        return new ProfileView(p.name, p.site, v.version, p.currentVersion, v.summary, v.includeProfile, v.sysctls,
                v.interfaceSettings, v.diff, v.comment, v.createdAt, v.createdBy);
    }
}
