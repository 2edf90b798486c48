package io.ferry.resolver.authentication;

import com.fasterxml.jackson.databind.JsonNode;
import io.ferry.identity.model.FerryRoles;
import io.ferry.identity.model.GridCaller;
import io.ferry.identity.security.GridIdentities;
import io.ferry.problem.Problem;
import io.ferry.problem.ProblemException;
import io.ferry.resolver.model.AdminPermissions;
import io.ferry.resolver.model.HandleAuthorization;
import io.ferry.resolver.model.HandleException;
import io.ferry.resolver.model.HandleName;
import io.ferry.resolver.model.HandleValue;
import io.ferry.resolver.model.ValuePermissions;
import io.ferry.resolver.repository.HandleStore;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.security.cert.X509Certificate;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Who may change a handle: a token with {@code handles:write} whose subject an HS_ADMIN value of the handle, or of
 * its prefix (held by {@code 0.NA/<prefix>}), names with every permission the change needs, or a Handle.net identity
 * ({@code index:handle}, proven by a secret key over HTTP Basic or by a session's challenge-response,
 * {@link SessionAuthentication}, or by a TLS client certificate whose key an HS_PUBKEY holds,
 * {@link ClientCertificateAuthentication}) that such an HS_ADMIN names directly or through
 * HS_VLIST groups. {@code handles:admin}
 * may do anything. Failures answer with Handle.net's codes: 402 authentication needed, 401 authentication failed,
 * 400 insufficient permissions.
 */
@ApplicationScoped
public class HandleAccess {

    /**
     * An authenticated caller; {@code vo} is its credential's VO (null without one). Its subject is a token's
     * {@code sub}, or a Handle.net identity {@code index:handle} (HTTP Basic with a secret key, the native protocol).
     */
    public record Caller(String subject, String vo, boolean admin, boolean writer, boolean handleNet) {

        /**
         * A token's caller. Its {@code sub} is never taken for a Handle.net identity, even when it reads like one
         * ({@code 300:20.500.1/ADMIN}): only a secret key or the native protocol's challenge proves one.
         */
        public Caller(String subject, String vo, boolean admin, boolean writer) {
            this(subject, vo, admin, writer, false);
        }

        /** A caller proven to hold the key at {@code index} of {@code handle}: it may write what HS_ADMIN grants it. */
        public static Caller handleIdentity(int index, String handle) {
            return new Caller(index + ":" + handle, null, false, true, true);
        }

        /** The Handle.net identity this caller is, or null for a token's subject. */
        public Reference identity() {
            return handleNet ? Reference.parse(subject) : null;
        }
    }

    /** A reference to one value of a handle, {@code index:handle}, as HS_ADMIN and HS_VLIST values hold them. */
    public record Reference(int index, String handle) {

        static Reference parse(String text) {
            int colon = text == null ? -1 : text.indexOf(':');
            if (colon <= 0 || colon > 9 || !text.substring(0, colon).chars().allMatch(Character::isDigit)
                    || HandleName.parse(text.substring(colon + 1)) == null) {
                return null;
            }
            return new Reference(Integer.parseInt(text.substring(0, colon)), text.substring(colon + 1));
        }

        static Reference of(JsonNode node) {
            String handle = node.path("handle").asText(null);
            return handle == null || !node.path("index").canConvertToInt() ? null : new Reference(node.path("index").asInt(), handle);
        }

        /** Whether this reference names {@code id}; index 0 names every index of the handle, as in Handle.net. */
        boolean names(Reference id) {
            return handle.equalsIgnoreCase(id.handle()) && (index == 0 || index == id.index());
        }
    }

    /** How deep HS_VLIST groups nest, and how many group handles one check reads at most (cycles end earlier). */
    static final int MAX_GROUP_DEPTH = 5;
    static final int MAX_GROUP_LOOKUPS = 50;

    final CurrentVertxRequest request;

    final SecretKeyAuthentication secretKeys;

    final SessionAuthentication sessions;

    final ClientCertificateAuthentication certificates;

    final CurrentIdentityAssociation identities;

    final HandleStore store;

    @Inject
    public HandleAccess(
            CurrentVertxRequest request,
            SecretKeyAuthentication secretKeys,
            SessionAuthentication sessions,
            ClientCertificateAuthentication certificates,
            CurrentIdentityAssociation identities,
            HandleStore store) {
        this.request = request;
        this.secretKeys = secretKeys;
        this.sessions = sessions;
        this.certificates = certificates;
        this.identities = identities;
        this.store = store;
    }

    /** The caller, or 402/401 when there is no token or a bad one. */
    public Uni<Caller> caller(String handle) {
        String authorization = authorization();
        if (SecretKeyAuthentication.isBasic(authorization)) {
            return Uni.createFrom().deferred(() -> secretKeys.authenticate(authorization, handle));
        }
        if (HandleAuthorization.isHandle(authorization)) {
            return Uni.createFrom().deferred(() -> sessions.authenticate(authorization, handle))
                    .map(found -> found.orElseThrow(() -> HandleException.authenticationNeeded(handle)));
        }
        return certificateCaller(authorization).flatMap(byCertificate -> byCertificate.isPresent()
                ? Uni.createFrom().item(byCertificate.get())
                : identities.getDeferredIdentity()
                .onFailure(AuthenticationFailedException.class).transform(e -> HandleException.authenticationFailed(handle))
                .map(id -> {
                    if (id == null || id.isAnonymous()) {
                        throw HandleException.authenticationNeeded(handle);
                    }
                    return caller(id);
                }));
    }

    /**
     * The Handle.net identity of the TLS client certificate, when the request carries no Authorization header (a
     * header wins, as in CNRI's authenticator) and the certificate matches an HS_PUBKEY; else empty.
     */
    private Uni<Optional<Caller>> certificateCaller(String authorization) {
        RoutingContext ctx = request.getCurrent();
        if (authorization != null || ctx == null || !ctx.request().isSSL()) {
            return Uni.createFrom().item(Optional.empty());
        }
        X509Certificate leaf = ClientCertificateAuthentication.leaf(ctx.request().sslSession());
        return leaf == null ? Uni.createFrom().item(Optional.empty()) : certificates.authenticate(leaf);
    }

    /**
     * Who reads: empty for an anonymous request, the caller for one with a valid token, 401 (Handle.net's
     * "authentication failed") for a request with a bad one.
     */
    public Uni<Optional<Caller>> reader(String handle) {
        String authorization = authorization();
        if (SecretKeyAuthentication.isBasic(authorization)) {
            return Uni.createFrom().deferred(() -> secretKeys.authenticate(authorization, handle)).map(Optional::of);
        }
        if (HandleAuthorization.isHandle(authorization)) {
            return Uni.createFrom().deferred(() -> sessions.authenticate(authorization, handle));
        }
        return certificateCaller(authorization).flatMap(byCertificate -> byCertificate.isPresent()
                ? Uni.createFrom().item(byCertificate)
                : identities.getDeferredIdentity()
                .onFailure(AuthenticationFailedException.class).transform(e -> HandleException.authenticationFailed(handle))
                .map(id -> id == null || id.isAnonymous() ? Optional.<Caller>empty() : Optional.of(caller(id))));
    }

    /** The request's Authorization header, or null. */
    private String authorization() {
        RoutingContext ctx = request.getCurrent();
        return ctx == null ? null : ctx.request().getHeader(HttpHeaders.AUTHORIZATION);
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
        return granted(store.pool(), caller, h.handle(), h.values(), read).map(yes -> yes ? h.adminView() : publicView);
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
        String prefixHandle = HandleName.prefixHandle(HandleName.parse(handle).prefix());
        return granted(c, caller, handle, handleValues, needed).map(yes -> {
            if (yes) {
                return null;
            }
            throw HandleException.notPermitted(handle, "no HS_ADMIN of the handle or of " + prefixHandle + " grants "
                    + caller.subject() + " " + needed);
        });
    }

    /** Whether an HS_ADMIN of the handle (values given) or of its prefix's {@code 0.NA/} handle grants {@code needed}. */
    private Uni<Boolean> granted(SqlClient c, Caller caller, String handle, List<HandleValue> handleValues, Set<AdminPermissions> needed) {
        return grants(c, handleValues, caller, needed).flatMap(yes -> {
            HandleName name = HandleName.parse(handle);
            if (yes || name == null) {
                return Uni.createFrom().item(yes);
            }
            return store.find(c, HandleName.prefixHandle(name.prefix())).flatMap(prefix -> prefix.isEmpty()
                    ? Uni.createFrom().item(false) : grants(c, prefix.get().values(), caller, needed));
        });
    }

    /**
     * Whether an HS_ADMIN among {@code values} grants {@code needed} to the caller: one naming the caller's token
     * subject, or its Handle.net identity (admin handle and index), or an HS_VLIST group the identity belongs to,
     * groups nesting up to {@value #MAX_GROUP_DEPTH} deep.
     */
    Uni<Boolean> grants(SqlClient c, List<HandleValue> values, Caller caller, Set<AdminPermissions> needed) {
        Reference id = caller.identity();
        List<Reference> groups = new ArrayList<>();
        for (HandleValue v : values) {
            if (!HandleValue.HS_ADMIN.equals(v.type()) || v.data() == null || v.data().value() == null) {
                continue;
            }
            JsonNode admin = v.data().value();
            String bits = admin.path("permissions").asText("");
            if (!needed.stream().allMatch(p -> p.grantedBy(bits))) {
                continue;
            }
            Reference ref = Reference.of(admin);
            if (id == null ? caller.subject().equals(admin.path("handle").asText(null)) : ref != null && ref.names(id)) {
                return Uni.createFrom().item(true);
            }
            if (ref != null) {
                groups.add(ref);
            }
        }
        if (id == null || groups.isEmpty()) {
            return Uni.createFrom().item(false);
        }
        return member(c, id, new ArrayDeque<>(groups.stream().map(g -> new Group(g, 1)).toList()), new HashSet<>(), 0);
    }

    private record Group(Reference ref, int depth) {
    }

    /** Breadth-first through HS_VLIST values: whether one of the queued groups lists {@code id}. */
    private Uni<Boolean> member(SqlClient c, Reference id, Deque<Group> queue, Set<String> seen, int lookups) {
        Group next = queue.poll();
        while (next != null && !seen.add(next.ref().index() + ":" + next.ref().handle().toLowerCase(java.util.Locale.ROOT))) {
            next = queue.poll();
        }
        if (next == null || lookups >= MAX_GROUP_LOOKUPS) {
            return Uni.createFrom().item(false);
        }
        Group group = next;
        return store.find(c, group.ref().handle()).flatMap(found -> {
            for (HandleValue v : found.map(HandleStore.Stored::values).orElse(List.of())) {
                if (!HandleValue.HS_VLIST.equals(v.type()) || !"vlist".equals(v.data().format())
                        || (group.ref().index() != 0 && v.index() != group.ref().index())) {
                    continue;
                }
                for (JsonNode entry : v.data().value()) {
                    Reference member = Reference.of(entry);
                    if (member == null) {
                        continue;
                    }
                    if (member.names(id)) {
                        return Uni.createFrom().item(true);
                    }
                    if (group.depth() < MAX_GROUP_DEPTH) {
                        queue.add(new Group(member, group.depth() + 1));
                    }
                }
            }
            return member(c, id, queue, seen, lookups + 1);
        });
    }

    /**
     * An HS_ADMIN value granting everything to {@code subject} (a token subject, or a Handle.net identity
     * {@code index:handle}, stored as that admin handle and index), for handles created without one.
     */
    public static HandleValue defaultAdmin(String subject, int index) {
        return defaultAdmin(subject, Reference.parse(subject), index);
    }

    /** As {@link #defaultAdmin(String, int)} for the caller: a token's subject is named as such, whatever it reads like. */
    public static HandleValue defaultAdmin(Caller caller, int index) {
        return defaultAdmin(caller.subject(), caller.identity(), index);
    }

    private static HandleValue defaultAdmin(String subject, Reference id, int index) {
        var node = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode()
                .put("handle", id == null ? subject : id.handle()).put("index", id == null ? 300 : id.index())
                .put("permissions", AdminPermissions.ALL);
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
