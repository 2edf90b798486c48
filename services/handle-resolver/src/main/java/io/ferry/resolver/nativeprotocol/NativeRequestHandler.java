package io.ferry.resolver.nativeprotocol;

import io.ferry.resolver.nativeprotocol.wire.WireReader;
import io.ferry.resolver.nativeprotocol.wire.ValueTranslation;
import io.ferry.resolver.authentication.SecretKeyChallenge;
import io.ferry.resolver.authentication.PublicKeyChallenge;
import io.ferry.resolver.nativeprotocol.wire.ProtocolException;
import io.ferry.resolver.nativeprotocol.wire.NativeValue;
import io.ferry.resolver.nativeprotocol.wire.MessageHeader;
import io.ferry.resolver.nativeprotocol.wire.Envelope;
import io.ferry.resolver.resolution.HandleAnswers;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.ferry.resolver.model.AdminPermissions;
import io.ferry.resolver.model.HandleException;
import io.ferry.resolver.model.HandleName;
import io.ferry.resolver.model.HandleValue;
import io.ferry.resolver.model.ValuePermissions;
import io.ferry.resolver.repository.HandleStore;
import io.ferry.resolver.authentication.HandleAccess;
import io.ferry.resolver.handles.HandleService;
import io.ferry.resolver.cache.ResolutionCache;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.GeneralSecurityException;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Answers native-protocol requests from the store, cache and service the REST API uses. Resolution is anonymous
 * (public values only, from the resolution cache; an authoritative request reads the database); administration
 * is challenged, and the challenged request runs once its answer proves the caller holds the secret key in the
 * HS_SECKEY value it names (or the private key of the HS_PUBKEY value it names), as the Handle.net identity
 * {@code <index>:<handle>}, under the same HS_ADMIN checks as REST. Requests may come in a session (set up here,
 * MAC-checked, possibly encrypted), whose first proven challenge makes it act as that identity; answers asked to be
 * certified are signed. {@code 0.NA/<prefix>} of a prefix homed here carries this server's HS_SITE, with the server
 * key, when it stores none.
 */
@ApplicationScoped
public class NativeRequestHandler {

    private static final Logger LOG = Logger.getLogger(NativeRequestHandler.class);

    static final String HS_SECKEY = "HS_SECKEY";
    static final String HS_PUBKEY = "HS_PUBKEY";
    /** CNRI's {@code Common.KEY_EXCHANGE_DH}, what its default {@code SessionSetupInfo} asks for. */
    static final int KEY_EXCHANGE_DH = 4;

    /**
     * What a request is answered with: the message (encrypted when {@code encrypted}), and the session id its
     * envelope carries (a session's, a challenge's, else 0).
     */
    public record Reply(byte[] message, int sessionId, boolean encrypted) {
    }

    /** An answer before it is signed and encrypted: its message, its envelope's session id, and the session it belongs to. */
    private record Outcome(byte[] message, int sessionId, NativeSession session) {
    }

    /** An administrative request's body: the handle, and its values (create, add, modify) or indices (remove). */
    record AdminOperation(String handle, List<NativeValue> values, List<Integer> indices) {
    }

    final HandleStore store;

    final ResolutionCache cache;

    final HandleService handles;

    final NativeProtocolConfig config;

    final ServerKey serverKey;

    @Inject
    public NativeRequestHandler(
            HandleStore store,
            ResolutionCache cache,
            HandleService handles,
            NativeProtocolConfig config,
            ServerKey serverKey) {
        this.store = store;
        this.cache = cache;
        this.handles = handles;
        this.config = config;
        this.serverKey = serverKey;
    }

    private PendingChallenges challenges;
    private final NativeSessions sessions = new NativeSessions();
    private volatile byte[] site;

    @PostConstruct
    void init() {
        challenges = new PendingChallenges(config.challengeTimeout());
    }

    /** The HS_SITE record of the ports the server bound. */
    void advertise(int tcpPort, int udpPort) {
        try {
            site = SiteRecord.encode(InetAddress.getByName(config.advertisedAddress()), tcpPort, udpPort, 1, serverKey.encodedPublicKey());
        } catch (UnknownHostException e) {
            throw new IllegalStateException("ferry.resolver.native.advertised-address is not an address", e);
        }
    }

    /**
     * The request in {@code message} (the bytes after {@code envelope}), decrypted with its session's key when the
     * envelope says it is encrypted.
     */
    public NativeRequest open(Envelope envelope, byte[] message, int offset) {
        if (!envelope.encrypted()) {
            return NativeRequest.decode(envelope, message, offset);
        }
        NativeSession session = sessions.find(envelope.sessionId());
        if (session == null) {
            throw new ProtocolException("encrypted message outside a session");
        }
        try {
            byte[] clear = SessionKeys.decrypt(session, Arrays.copyOfRange(message, offset, offset + envelope.messageLength()));
            return NativeRequest.decode(envelope, clear, 0, clear.length);
        } catch (GeneralSecurityException e) {
            throw new ProtocolException("message not encrypted under its session's key");
        }
    }

    public Uni<Reply> handle(NativeRequest req) {
        int op = req.opCode();
        int sid = req.envelope().sessionId();
        // A challenge's answer carries the challenge's id, and a setup the session it replaces; the rest of a
        // session's requests carry its id and its key's MAC.
        NativeSession session = null;
        if (sid != 0 && op != MessageHeader.OC_RESPONSE_TO_CHALLENGE && op != MessageHeader.OC_SESSION_SETUP) {
            session = sessions.find(sid);
            byte[] refusal = sessionRefusal(req, session);
            if (refusal != null) {
                return Uni.createFrom().item(finish(req, new Outcome(refusal, sid, null)));
            }
        }
        NativeSession in = session;
        int replySession = session == null ? 0 : sid;
        return Uni.createFrom().deferred(() -> switch (op) {
                    case MessageHeader.OC_RESOLUTION -> resolve(req).map(m -> new Outcome(m, replySession, in));
                    case MessageHeader.OC_GET_SITE_INFO -> Uni.createFrom().item(new Outcome(Responses.siteInfo(req, site), replySession, in));
                    case MessageHeader.OC_CREATE_HANDLE, MessageHeader.OC_DELETE_HANDLE, MessageHeader.OC_ADD_VALUE,
                         MessageHeader.OC_REMOVE_VALUE, MessageHeader.OC_MODIFY_VALUE -> admin(req, in);
                    case MessageHeader.OC_RESPONSE_TO_CHALLENGE -> answer(req);
                    case MessageHeader.OC_SESSION_SETUP -> Uni.createFrom().item(setUpSession(req));
                    case MessageHeader.OC_SESSION_TERMINATE -> Uni.createFrom().item(terminate(req, in));
                    default -> Uni.createFrom().item(new Outcome(Responses.error(req, Responses.RC_OPERATION_NOT_SUPPORTED,
                            "Operation " + req.opCode() + " is not supported"), replySession, in));
                })
                .onFailure().recoverWithItem(e -> new Outcome(failure(req, e), replySession, in))
                .map(outcome -> finish(req, outcome));
    }

    /** Why a request under session id {@code session} is refused (unknown or expired session, bad MAC, replay), or null. */
    private static byte[] sessionRefusal(NativeRequest req, NativeSession session) {
        if (session == null) {
            return Responses.error(req, Responses.RC_SESSION_TIMEOUT, "Session expired or unknown");
        }
        MessageSignatures.Credential credential;
        try {
            credential = MessageSignatures.Credential.read(req.credential());
        } catch (ProtocolException e) {
            credential = null;
        }
        if (!MessageSignatures.verifyMac(session, req, credential)) {
            return Responses.error(req, Responses.RC_SESSION_FAILED, "Message not signed with the session key");
        }
        if (!session.accept(credential.counter())) {
            return Responses.error(req, Responses.RC_SESSION_MESSAGE_REJECTED, "Session message replayed");
        }
        return null;
    }

    /**
     * Signs the answer when its request asked for a certified one (with the session's key in a session, else with
     * the server's private key, which the HS_SITE record publishes), and encrypts it when its request came
     * encrypted or asked for encryption in a session.
     */
    private Reply finish(NativeRequest req, Outcome outcome) {
        byte[] message = outcome.message();
        NativeSession session = outcome.session();
        try {
            if (req.header().has(MessageHeader.FLAG_CERTIFY)) {
                Envelope env = req.envelope().reply(outcome.sessionId(), 0);
                byte[] signed = Responses.headerAndBody(message);
                byte[] credential = session != null
                        ? MessageSignatures.mac(session, env, session.nextAnswerCounter(), signed)
                        : MessageSignatures.sign(serverKey.privateKey(), env, 0, signed);
                message = Responses.withCredential(message, credential);
            }
            boolean encrypt = session != null && (req.envelope().encrypted() || req.header().has(MessageHeader.FLAG_ENCRYPT));
            if (encrypt) {
                message = SessionKeys.encrypt(session, message);
            }
            return new Reply(message, outcome.sessionId(), encrypt);
        } catch (GeneralSecurityException e) {
            LOG.warnf(e, "native answer to %d could not be signed or encrypted", req.opCode());
            return new Reply(Responses.error(req, Responses.RC_ERROR, "Server error"), outcome.sessionId(), false);
        }
    }

    private static byte[] failure(NativeRequest req, Throwable e) {
        if (e instanceof HandleException he) {
            // REST's 401 "authentication failed" is the protocol's 403; the other codes are the same numbers.
            int rc = he.responseCode() == 401 ? Responses.RC_AUTHENTICATION_FAILED : he.responseCode();
            return Responses.error(req, rc, he.getMessage());
        }
        if (e instanceof ProtocolException) {
            return Responses.error(req, Responses.RC_PROTOCOL_ERROR, e.getMessage());
        }
        LOG.warnf(e, "native request %d failed", req.opCode());
        return Responses.error(req, Responses.RC_ERROR, "Server error");
    }

    /** A resolution request's body: the handle, and the indices and types asked for (none: all values). */
    record ResolutionQuery(byte[] handle, List<Integer> indices, List<String> types) {

        static ResolutionQuery decode(NativeRequest req) {
            WireReader in = req.body();
            byte[] handle = in.bytes();
            List<Integer> indices = Arrays.stream(in.ints()).boxed().toList();
            List<String> types = Arrays.stream(in.byteStrings()).map(t -> new String(t, StandardCharsets.UTF_8)).toList();
            return new ResolutionQuery(handle, indices, types);
        }
    }

    private Uni<byte[]> resolve(NativeRequest req) {
        ResolutionQuery query = ResolutionQuery.decode(req);
        byte[] handleBytes = query.handle();
        String handle = new String(handleBytes, StandardCharsets.UTF_8);
        HandleName name = HandleName.parse(handle);
        if (name == null) {
            throw HandleException.invalidHandle(handle);
        }
        List<Integer> indices = query.indices();
        List<String> types = query.types();
        boolean authoritative = req.header().has(MessageHeader.FLAG_AUTHORITATIVE);
        if (!authoritative && types.isEmpty() && indices.isEmpty() && !prefixHandle(handle)) {
            ResolutionCache.Entry cached = cache.get(handle);
            if (cached != null) {
                return Uni.createFrom().item(allValues(req, handleBytes, cached));
            }
        }
        // An authoritative query skips the cache (which is never staler than a change notification anyway).
        Uni<Optional<HandleStore.Stored>> lookup = authoritative
                ? store.find(handle).map(found -> found.map(HandleStore.Stored::publicView)) : cache.find(handle);
        return lookup.flatMap(found -> {
            if (found.isEmpty()) {
                return store.prefixHomed(store.pool(), name.prefix()).map(homed -> {
                    throw homed ? HandleException.notFound(handle) : HandleException.notResponsible(handle);
                });
            }
            HandleStore.Stored h = found.get();
            List<HandleValue> selected = HandleAnswers.answer(h, types, indices, OffsetDateTime.now(ZoneOffset.UTC)).body().values();
            List<NativeValue> values = new ArrayList<>(selected.size() + 1);
            selected.forEach(v -> values.add(ValueTranslation.toNative(v)));
            NativeValue siteValue = siteValue(h);
            if (siteValue != null && (types.isEmpty() && indices.isEmpty() || types.stream().anyMatch(SiteRecord.HS_SITE::equalsIgnoreCase)
                    || indices.contains(siteValue.index()))) {
                values.add(siteValue);
            }
            if (values.isEmpty()) {
                return Uni.createFrom().item(Responses.error(req, Responses.RC_VALUES_NOT_FOUND, "Values Not Found"));
            }
            return Uni.createFrom().item(Responses.resolution(req, handleBytes, values));
        });
    }

    /**
     * The answer to a request for all values of a cached handle: its values are encoded once per cache entry (and
     * dropped with it), the same bytes {@link #resolve} writes value by value.
     */
    private byte[] allValues(NativeRequest req, byte[] handleBytes, ResolutionCache.Entry cached) {
        byte[] encoded = cache.nativeValues(cached, view -> {
            List<HandleValue> values = HandleAnswers.answer(view, List.of(), List.of(), OffsetDateTime.now(ZoneOffset.UTC)).body().values();
            return values.isEmpty() ? new byte[0] : Responses.valueList(values.stream().map(ValueTranslation::toNative).toList());
        });
        return encoded.length == 0 ? Responses.error(req, Responses.RC_VALUES_NOT_FOUND, "Values Not Found")
                : Responses.resolution(req, handleBytes, encoded);
    }

    /** A prefix handle ({@code 0.NA/...}), whose answer may carry this server's HS_SITE. */
    private static boolean prefixHandle(String handle) {
        return handle.regionMatches(true, 0, "0.NA/", 0, 5);
    }

    /** This server's HS_SITE for a prefix handle that stores none, at its lowest free index from 1. */
    private NativeValue siteValue(HandleStore.Stored h) {
        if (site == null || !prefixHandle(h.handle())
                || h.values().stream().anyMatch(v -> SiteRecord.HS_SITE.equals(v.type()))) {
            return null;
        }
        int index = 1;
        while (indexTaken(h.values(), index)) {
            index++;
        }
        return new NativeValue(index, (int) (System.currentTimeMillis() / 1000), 0, 86400, NativeValue.ADMIN_READ | NativeValue.ADMIN_WRITE
                | NativeValue.PUBLIC_READ, SiteRecord.HS_SITE.getBytes(StandardCharsets.US_ASCII), site, List.of());
    }

    private static boolean indexTaken(List<HandleValue> values, int index) {
        return values.stream().anyMatch(v -> v.index() == index);
    }

    /**
     * An administrative request: run as the session's identity when a challenge in the session proved one (as
     * CNRI's server does, no second challenge), else challenged.
     */
    private Uni<Outcome> admin(NativeRequest req, NativeSession session) {
        NativeSession.Identity identity = session == null ? null : session.authenticated();
        if (identity == null) {
            return Uni.createFrom().item(challenge(req, session));
        }
        HandleAccess.Caller caller = HandleAccess.Caller.handleIdentity(identity.index(), identity.handle());
        return administer(req, req, caller, identity.handle(), identity.index()).map(m -> new Outcome(m, session.id(), session));
    }

    /** Decodes the administrative request (so a malformed one is refused before any challenge) and challenges it. */
    private Outcome challenge(NativeRequest req, NativeSession session) {
        adminOperation(req);
        byte[] nonce = challenges.nonce();
        byte[] digest = Responses.digest(Responses.digestType(req.envelope()), req.headerAndBody());
        int challengeId = challenges.issue(req, nonce, digest, sessions::holds);
        if (challengeId == 0) {
            return new Outcome(Responses.error(req, Responses.RC_SERVER_TOO_BUSY, "Server too busy"), session == null ? 0 : session.id(), session);
        }
        return new Outcome(Responses.challenge(req, nonce), challengeId, session);
    }

    static AdminOperation adminOperation(NativeRequest req) {
        WireReader in = req.body();
        String handle = new String(in.bytes(), StandardCharsets.UTF_8);
        return switch (req.opCode()) {
            case MessageHeader.OC_CREATE_HANDLE, MessageHeader.OC_ADD_VALUE, MessageHeader.OC_MODIFY_VALUE ->
                    new AdminOperation(handle, NativeValue.decodeList(in), List.of());
            case MessageHeader.OC_REMOVE_VALUE -> new AdminOperation(handle, List.of(), Arrays.stream(in.ints()).boxed().toList());
            default -> new AdminOperation(handle, List.of(), List.of());
        };
    }

    private Uni<Outcome> answer(NativeRequest answer) {
        WireReader in = answer.body();
        String authType = new String(in.bytes(), StandardCharsets.UTF_8);
        String userHandle = new String(in.bytes(), StandardCharsets.UTF_8);
        int userIndex = in.int4();
        byte[] signed = in.bytes();
        int challengeId = answer.envelope().sessionId();
        PendingChallenges.Pending pending = challenges.take(challengeId);
        if (pending == null) {
            return Uni.createFrom().item(new Outcome(Responses.error(answer, Responses.RC_AUTHEN_TIMEOUT, "No open challenge for this session"),
                    challengeId, null));
        }
        NativeRequest original = pending.request();
        // The session the challenged request came in (its MAC was checked then), which a proof authenticates.
        int originalSession = original.envelope().sessionId();
        NativeSession session = originalSession == 0 ? null : sessions.find(originalSession);
        // The answer to the challenged request: its operation, and (if asked) the digest of the answer that carried it.
        NativeRequest respondTo = new NativeRequest(answer.envelope(), new MessageHeader(original.opCode(), 0,
                answer.header().opFlags(), 0, answer.header().recursionCount(), 0, answer.header().bodyLength()), answer.headerAndBody());
        if (!HS_SECKEY.equals(authType) && !HS_PUBKEY.equals(authType)) {
            return Uni.createFrom().item(new Outcome(Responses.error(respondTo, Responses.RC_AUTHENTICATION_FAILED,
                    "Authentication type " + authType + " is not supported here"), challengeId, session));
        }
        if (HandleName.parse(userHandle) == null) {
            return Uni.createFrom().item(new Outcome(Responses.error(respondTo, Responses.RC_AUTHENTICATION_FAILED, "Authentication Failed"),
                    challengeId, session));
        }
        return store.find(userHandle).flatMap(found -> {
            byte[] key = found.flatMap(u -> u.values().stream().filter(v -> v.index() == userIndex && authType.equals(v.type())).findFirst())
                    .map(v -> ValueTranslation.data(v.data())).orElse(null);
            boolean proven = HS_SECKEY.equals(authType)
                    ? SecretKeyChallenge.verify(key, pending.nonce(), pending.requestDigest(), signed)
                    : PublicKeyChallenge.verify(key, pending.nonce(), pending.requestDigest(), signed);
            if (!proven) {
                return Uni.createFrom().item(new Outcome(Responses.error(respondTo, Responses.RC_AUTHENTICATION_FAILED, "Authentication Failed"),
                        challengeId, session));
            }
            if (session != null) {
                session.authenticate(new NativeSession.Identity(userHandle, userIndex));
            }
            HandleAccess.Caller caller = HandleAccess.Caller.handleIdentity(userIndex, userHandle);
            return Uni.createFrom().deferred(() -> administer(original, respondTo, caller, userHandle, userIndex))
                    .onFailure().recoverWithItem(e -> failure(respondTo, e))
                    .map(m -> new Outcome(m, challengeId, session));
        });
    }

    /**
     * OC_SESSION_SETUP with CNRI's default Diffie-Hellman key exchange: a new session under a fresh id, its key
     * agreed on the client's group; the answer is signed with the server key (the client certifies it). A setup
     * naming an identity binds that identity only once a challenge in the session proves it.
     */
    private Outcome setUpSession(NativeRequest req) {
        WireReader in = req.body();
        int mode = in.int2();
        int timeoutSeconds = in.int4();
        byte[] identityHandle = in.bytes();
        int identityIndex = in.int4();
        if (mode != KEY_EXCHANGE_DH) {
            return new Outcome(Responses.error(req, Responses.RC_OPERATION_NOT_SUPPORTED,
                    "Key exchange mode " + mode + " is not supported; Diffie-Hellman (4) is"), 0, null);
        }
        if (!req.envelope().atLeast(2, 7)) {
            return new Outcome(Responses.error(req, Responses.RC_OPERATION_NOT_SUPPORTED, "Sessions need protocol 2.7 or later"), 0, null);
        }
        SessionKeys.Agreement agreement;
        try {
            agreement = SessionKeys.diffieHellman(in.bytes());
        } catch (GeneralSecurityException | ProtocolException e) {
            return new Outcome(Responses.error(req, Responses.RC_INVALID_SESSION_KEY, "Unusable Diffie-Hellman key"), 0, null);
        }
        long timeout = Math.min(config.maxSessionTimeout().toNanos(), TimeUnit.SECONDS.toNanos(Math.max(timeoutSeconds, 1)));
        NativeSession.Identity claimed = identityHandle.length == 0 ? null
                : new NativeSession.Identity(new String(identityHandle, StandardCharsets.UTF_8), identityIndex);
        int id = sessions.freeId(challenges::holds);
        Envelope agreed = req.envelope().reply(id, 0);
        if (!sessions.add(new NativeSession(id, agreement.sessionKey(), agreed.major(), agreed.minor(), timeout, claimed))) {
            return new Outcome(Responses.error(req, Responses.RC_SERVER_TOO_BUSY, "Server too busy"), 0, null);
        }
        return new Outcome(Responses.sessionSetup(req, mode, agreement.answerData()), id, null);
    }

    /** OC_SESSION_TERMINATE: the session (whose MAC {@link #handle} checked) ends. */
    private Outcome terminate(NativeRequest req, NativeSession session) {
        if (session == null) {
            return new Outcome(Responses.error(req, Responses.RC_SESSION_FAILED, "No session to terminate"), 0, null);
        }
        sessions.close(session.id());
        return new Outcome(Responses.done(req), session.id(), session);
    }

    private Uni<byte[]> administer(NativeRequest original, NativeRequest respondTo, HandleAccess.Caller caller, String userHandle, int userIndex) {
        AdminOperation op = adminOperation(original);
        // A create that mints its suffix names only the prefix ("20.500.123/"); the minted handle is checked when written.
        boolean mint = original.opCode() == MessageHeader.OC_CREATE_HANDLE && original.header().has(MessageHeader.FLAG_MINT);
        if (HandleName.parse(mint ? op.handle() + "x" : op.handle()) == null) {
            throw HandleException.invalidHandle(op.handle());
        }
        List<HandleValue> values = new ArrayList<>(op.values().stream().map(ValueTranslation::fromNative).toList());
        if (original.opCode() == MessageHeader.OC_CREATE_HANDLE && values.stream().noneMatch(v -> HandleValue.HS_ADMIN.equals(v.type()))) {
            // As Ferry does for REST, a handle created without administrators gets its creator as one; here named
            // as Handle.net names an admin, by handle and index.
            int free = 100;
            while (indexTaken(values, free)) {
                free++;
            }
            values.add(new HandleValue(free, HandleValue.HS_ADMIN, new HandleValue.Data("admin", JsonNodeFactory.instance.objectNode()
                    .put("handle", userHandle).put("index", userIndex).put("permissions", AdminPermissions.ALL)),
                    IntNode.valueOf(86400), null, ValuePermissions.DEFAULT));
        }
        List<Integer> valueIndices = values.stream().map(HandleValue::index).toList();
        boolean overwrite = original.header().has(MessageHeader.FLAG_OVERWRITE);
        return switch (original.opCode()) {
            case MessageHeader.OC_CREATE_HANDLE -> handles.put(caller, op.handle(), values, List.of(), overwrite, mint)
                    .map(a -> Responses.created(respondTo, mint ? a.body().handle().getBytes(StandardCharsets.UTF_8) : null));
            case MessageHeader.OC_ADD_VALUE -> existing(op.handle(), List.of())
                    .flatMap(h -> handles.put(caller, op.handle(), values, valueIndices, overwrite, false)).map(a -> Responses.done(respondTo));
            case MessageHeader.OC_MODIFY_VALUE -> existing(op.handle(), valueIndices)
                    .flatMap(h -> handles.put(caller, op.handle(), values, valueIndices, true, false)).map(a -> Responses.done(respondTo));
            case MessageHeader.OC_REMOVE_VALUE -> handles.delete(caller, op.handle(), op.indices()).map(a -> Responses.done(respondTo));
            default -> handles.delete(caller, op.handle(), List.of()).map(a -> Responses.done(respondTo));
        };
    }

    /** The stored handle, which must hold a value at each of {@code indices} (else 100 or 200, as CNRI answers). */
    private Uni<HandleStore.Stored> existing(String handle, List<Integer> indices) {
        return store.find(handle).map(found -> {
            HandleStore.Stored h = found.orElseThrow(() -> HandleException.notFound(handle));
            for (int index : indices) {
                if (!indexTaken(h.values(), index)) {
                    throw new HandleException(Responses.RC_VALUES_NOT_FOUND, 404, handle, "Values Not Found at index " + index);
                }
            }
            return h;
        });
    }
}
