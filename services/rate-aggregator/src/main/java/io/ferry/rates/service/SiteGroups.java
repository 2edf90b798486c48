package io.ferry.rates.service;

import io.ferry.problem.ProblemException;
import io.ferry.rates.model.Names;
import io.ferry.rates.repository.SiteGroupStore;
import io.ferry.rates.api.SiteGroup;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.List;

/**
 * Site groups ("UK-T2s"). Group figures are folded from site-pair rollups when asked for, so a group defined
 * today covers the whole history that rollups keep.
 */
@ApplicationScoped
public class SiteGroups {

    final SiteGroupStore store;

    @Inject
    public SiteGroups(SiteGroupStore store) {
        this.store = store;
    }

    public Uni<List<SiteGroup>> list() {
        return store.list();
    }

    public Uni<SiteGroup> put(String name, List<String> sites) {
        requireName(name);
        if (sites == null || sites.isEmpty() || sites.size() > 1000 || sites.stream().anyMatch(s -> s == null || !Names.isName(s))) {
            throw ProblemException.badRequest("sites", "a list of 1 to 1000 site names (" + Names.RULE + ")");
        }
        return store.put(name, sites.stream().distinct().sorted().toList());
    }

    public Uni<Void> delete(String name) {
        requireName(name);
        return store.delete(name).map(deleted -> {
            if (!deleted) {
                throw ProblemException.notFound("site group '" + name + "'");
            }
            return null;
        });
    }

    private static void requireName(String name) {
        if (!name.matches("[A-Za-z0-9][A-Za-z0-9_.+-]{0,99}")) {
            throw ProblemException.badRequest("name", "group names are letters, digits, '_', '.', '+' and '-'");
        }
    }
}
