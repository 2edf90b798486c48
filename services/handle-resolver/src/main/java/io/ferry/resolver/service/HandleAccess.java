package io.ferry.resolver.service;

import com.fasterxml.jackson.databind.JsonNode;
import io.ferry.identity.model.FerryRoles;
import io.ferry.identity.model.GridCaller;
import io.ferry.identity.security.GridIdentities;
import io.ferry.problem.Problem;
import io.ferry.problem.ProblemException;
import io.ferry.resolver.model.AdminPermissions;
import io.ferry.resolver.model.HandleException;
import io.ferry.resolver.model.HandleName;
import io.ferry.resolver.model.HandleValue;
import io.ferry.resolver.model.ValuePermissions;
import io.ferry.resolver.repository.HandleStore;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Who may change a handle: a token with {@code handles:write} whose subject an HS_ADMIN value of the handle, or of
 * its prefix (held by {@code 0.NA/<prefix>}), names with every permission the change needs. {@code handles:admin}
 * may do anything. Failures answer with Handle.net's codes: 402 authentication needed, 401 authentication failed,
 * 400 insufficient permissions.
 */
@ApplicationScoped
public class HandleAccess {

    /** An authenticated caller; {@code vo} is its credential's VO (null without one). */
    public record Caller(String subject, String vo, boolean admin, boolean writer) {
    }

    @Inject
    CurrentIdentityAssociation identities;

    @Inject
    HandleStore store;

    /** The caller, or 402/401 when there is no token or a bad one. */
    public Uni<Caller> caller(String handle) {
        return identities.getDeferredIdentity()
                .onFailure(AuthenticationFailedException.class).transform(e -> HandleException.authenticationFailed(handle))
                .map(id -> {
                    if (id == null || id.isAnonymous()) {
                        throw HandleException.authenticationNeeded(handle);
                    }
                    return caller(id);
                });
    }

    /**
     * Who reads: empty for an anonymous request, the caller for one with a valid token, 401 (Handle.net's
     * "authentication failed") for a request with a bad one.
     */
    public Uni<Optional<Caller>> reader(String handle) {
        return identities.getDeferredIdentity()
                .onFailure(AuthenticationFailedException.class).transform(e -> HandleException.authenticationFailed(handle))
                .map(id -> id == null || id.isAnonymous() ? Optional.<Caller>empty() : Optional.of(caller(id)));
    }

    private static Caller caller(SecurityIdentity id) {
        String vo = GridIdentities.caller(id).map(GridCaller::vo).orElse(null);
        return new Caller(id.getPrincipal().getName(), vo, id.hasRole(FerryRoles.HANDLES_ADMIN), id.hasRole(FerryRoles.HANDLES_WRITE) || id.hasRole(FerryRoles.HANDLES_ADMIN));
    }

    /**
     * What {@code caller} may read of a stored handle: everything with {@code handles:admin}; the values with admin
     * or public read when an HS_ADMIN of the handle or of its prefix grants the caller READ_VALUE (and the token has
     * {@code handles:write}); else the public values.
     */
    public Uni<HandleStore.Stored> readable(Caller caller, HandleStore.Stored h) {
        if (caller.admin()) {
            return Uni.createFrom().item(h);
        }
        HandleStore.Stored publicView = h.publicView();
        if (!caller.writer() || publicView == h) {
            return Uni.createFrom().item(publicView);
        }
        Set<AdminPermissions> read = EnumSet.of(AdminPermissions.READ_VALUE);
        if (grants(h.values(), caller.subject(), read)) {
            return Uni.createFrom().item(h.adminView());
        }
        HandleName name = HandleName.parse(h.handle());
        if (name == null) {
            return Uni.createFrom().item(publicView);
        }
        return store.find(HandleName.prefixHandle(name.prefix())).map(prefix ->
                prefix.isPresent() && grants(prefix.get().values(), caller.subject(), read) ? h.adminView() : publicView);
    }

    /** A caller and a stored handle it may add to (names, replicas). */
    public record Addable(Caller caller, HandleStore.Stored handle) {
    }

    /**
     * The stored handle and the caller, if the caller may add to it (ADD_VALUE) and it is not tombstoned; failures
     * as problem+json (these are Ferry's own APIs, not Handle.net's): 400, 401, 403, 409 TOMBSTONED, 422 UNKNOWN_HANDLE.
     */
    public Uni<Addable> addable(String handle) {
        if (handle == null || HandleName.parse(handle) == null) {
            throw ProblemException.badRequest("handle", "a handle prefix/suffix is required");
        }
        return caller(handle).flatMap(caller -> store.find(handle).flatMap(found -> {
            HandleStore.Stored h = found.orElseThrow(() -> ProblemException.unprocessable("UNKNOWN_HANDLE",
                    "handle '" + handle + "' does not exist", Map.of()));
            if (h.tombstonedAt() != null) {
                throw ProblemException.conflict("TOMBSTONED", "the object behind '" + handle + "' was deleted");
            }
            return require(store.pool(), caller, h.handle(), h.values(), EnumSet.of(AdminPermissions.ADD_VALUE))
                    .replaceWith(new Addable(caller, h));
        })).onFailure(HandleException.class).transform(HandleAccess::problem);
    }

    /** A Handle.net failure as problem+json, for Ferry's own APIs. */
    public static ProblemException problem(Throwable e) {
        HandleException he = (HandleException) e;
        return new ProblemException(Problem.of(he.httpStatus(), he.httpStatus() == 401 ? "UNAUTHENTICATED" : "FORBIDDEN", he.getMessage()));
    }

    /** Passes when {@code caller} holds {@code needed} on the handle (values given, may be empty) or its prefix. */
    public Uni<Void> require(SqlClient c, Caller caller, String handle, List<HandleValue> handleValues, Set<AdminPermissions> needed) {
        if (caller.admin()) {
            return Uni.createFrom().voidItem();
        }
        if (!caller.writer()) {
            throw HandleException.notPermitted(handle, "the token lacks the " + FerryRoles.HANDLES_WRITE + " scope");
        }
        if (grants(handleValues, caller.subject(), needed)) {
            return Uni.createFrom().voidItem();
        }
        HandleName name = HandleName.parse(handle);
        String prefixHandle = HandleName.prefixHandle(name.prefix());
        return store.find(c, prefixHandle).map(prefix -> {
            if (prefix.isPresent() && grants(prefix.get().values(), caller.subject(), needed)) {
                return null;
            }
            throw HandleException.notPermitted(handle, "no HS_ADMIN of the handle or of " + prefixHandle + " grants "
                    + caller.subject() + " " + needed);
        });
    }

    static boolean grants(List<HandleValue> values, String subject, Set<AdminPermissions> needed) {
        for (HandleValue v : values) {
            if (!HandleValue.HS_ADMIN.equals(v.type()) || v.data() == null || v.data().value() == null) {
                continue;
            }
            JsonNode admin = v.data().value();
            // A Handle.net identity ("300:0.NA/10.5072", from the native protocol's challenge-response) is the
            // admin's index and handle; a token's subject is the handle alone.
            if (!subject.equals(admin.path("handle").asText(null))
                    && !subject.equals(admin.path("index").asText("") + ":" + admin.path("handle").asText(""))) {
                continue;
            }
            String bits = admin.path("permissions").asText("");
            if (needed.stream().allMatch(p -> p.grantedBy(bits))) {
                return true;
            }
        }
        return false;
    }

    /** An HS_ADMIN value granting everything to {@code subject}, for handles created without one. */
    public static HandleValue defaultAdmin(String subject, int index) {
        var node = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode()
                .put("handle", subject).put("index", 300).put("permissions", AdminPermissions.ALL);
        return new HandleValue(index, HandleValue.HS_ADMIN, new HandleValue.Data("admin", node),
                com.fasterxml.jackson.databind.node.IntNode.valueOf(86400), null, ValuePermissions.DEFAULT);
    }

    /** Permissions a change of {@code before} into {@code after} needs (value and admin rights separately). */
    public static Set<AdminPermissions> neededFor(List<HandleValue> before, List<HandleValue> after) {
        Set<AdminPermissions> needed = EnumSet.noneOf(AdminPermissions.class);
        List<Integer> afterIdx = new ArrayList<>();
        for (HandleValue a : after) {
            afterIdx.add(a.index());
            HandleValue old = before.stream().filter(b -> b.index().equals(a.index())).findFirst().orElse(null);
            boolean admin = HandleValue.HS_ADMIN.equals(a.type()) || (old != null && HandleValue.HS_ADMIN.equals(old.type()));
            if (old == null) {
                needed.add(admin ? AdminPermissions.ADD_ADMIN : AdminPermissions.ADD_VALUE);
            } else if (!old.type().equals(a.type()) || !old.data().equals(a.data()) || !String.valueOf(old.ttl()).equals(String.valueOf(a.ttl()))
                    || !ValuePermissions.of(old).equals(ValuePermissions.of(a))) {
                needed.add(admin ? AdminPermissions.MODIFY_ADMIN : AdminPermissions.MODIFY_VALUE);
            }
        }
        for (HandleValue b : before) {
            if (!afterIdx.contains(b.index())) {
                needed.add(HandleValue.HS_ADMIN.equals(b.type()) ? AdminPermissions.REMOVE_ADMIN : AdminPermissions.REMOVE_VALUE);
            }
        }
        return needed;
    }

}
