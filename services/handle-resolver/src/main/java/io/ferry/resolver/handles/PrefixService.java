package io.ferry.resolver.handles;

import io.ferry.resolver.authentication.HandleAccess;
import io.ferry.resolver.repository.PrefixStore;
import io.ferry.identity.model.FerryRoles;
import io.ferry.resolver.model.HandleException;
import io.ferry.resolver.model.HandleName;
import io.ferry.resolver.model.HandleValue;
import io.ferry.resolver.repository.HandleStore;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.List;

/**
 * Homing and unhoming prefixes ({@code handles:admin}). Homing creates the prefix handle {@code 0.NA/<prefix>}
 * whose HS_ADMIN values (the caller, plus any admins named) may create handles under the prefix.
 */
@ApplicationScoped
public class PrefixService {

    final HandleStore store;

    final HandleAccess access;

    final PrefixStore prefixes;

    @Inject
    public PrefixService(HandleStore store, HandleAccess access, PrefixStore prefixes) {
        this.store = store;
        this.access = access;
        this.prefixes = prefixes;
    }

    @WithSpan
    public Uni<Void> home(String prefix, List<String> admins) {
        if (HandleName.parse(prefix + "/x") == null) {
            throw HandleException.invalidHandle(prefix);
        }
        String prefixHandle = HandleName.prefixHandle(prefix);
        return access.caller(prefixHandle).flatMap(caller -> {
            if (!caller.admin()) {
                throw HandleException.notPermitted(prefixHandle, "homing a prefix needs the " + FerryRoles.HANDLES_ADMIN + " scope");
            }
            List<HandleValue> values = new ArrayList<>();
            values.add(HandleAccess.defaultAdmin(caller, 100));
            int index = 101;
            for (String admin : admins) {
                values.add(HandleAccess.defaultAdmin(admin, index++));
            }
            return store.pool().withTransaction(c -> prefixes.home(c, prefix, caller.subject())
                    .flatMap(v -> store.find(c, prefixHandle))
                    .flatMap(existing -> existing.isPresent() ? Uni.createFrom().voidItem()
                            : store.replace(c, prefixHandle, "0.NA", values, java.util.Map.of())));
        });
    }

    @WithSpan
    public Uni<Void> unhome(String prefix) {
        if (HandleName.parse(prefix + "/x") == null) {
            throw HandleException.invalidHandle(prefix);
        }
        String prefixHandle = HandleName.prefixHandle(prefix);
        return access.caller(prefixHandle).flatMap(caller -> {
            if (!caller.admin()) {
                throw HandleException.notPermitted(prefixHandle, "unhoming a prefix needs the " + FerryRoles.HANDLES_ADMIN + " scope");
            }
            return prefixes.unhome(prefix).map(homed -> {
                if (!homed) {
                    throw HandleException.notResponsible(prefix + "/");
                }
                return null;
            });
        });
    }

    public Uni<List<String>> list() {
        return prefixes.names();
    }
}
