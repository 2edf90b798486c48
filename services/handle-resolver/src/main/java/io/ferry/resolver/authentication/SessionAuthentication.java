package io.ferry.resolver.authentication;

import io.ferry.resolver.model.HandleAuthorization;
import io.ferry.resolver.model.HandleException;
import io.ferry.resolver.model.HandleName;
import io.ferry.resolver.model.HandleValue;
import io.ferry.resolver.model.ValueFormats;
import io.ferry.resolver.authentication.PublicKeyChallenge;
import io.ferry.resolver.authentication.SecretKeyChallenge;
import io.ferry.resolver.repository.HandleStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * CNRI's session challenge-response ({@code Authorization: Handle …}, as {@code StandardHandleAuthenticator} reads
 * it): the client signs the session's server nonce followed by its own nonce ({@code cnonce}) with the secret key of
 * an HS_SECKEY value (a MAC, as in the native protocol's challenge) or the private key of an HS_PUBKEY value, and
 * names the value as {@code id="index:handle"}; index 0 tries each such value of the handle. A proven identity stays
 * with the session, so later requests name the session only.
 */
@ApplicationScoped
public class SessionAuthentication {

    public static final String HS_PUBKEY = "HS_PUBKEY";

    final HandleStore store;

    final HandleSessions sessions;

    @Inject
    public SessionAuthentication(HandleStore store, HandleSessions sessions) {
        this.store = store;
        this.sessions = sessions;
    }

    /**
     * The caller an {@code Authorization: Handle} header on an API request proves, or its session holds: empty when
     * it names a session that has not authenticated; 401 for a malformed header, an unknown session, or an answer
     * that does not verify.
     */
    public Uni<Optional<HandleAccess.Caller>> authenticate(String header, String forHandle) {
        HandleAuthorization auth = HandleAuthorization.parse(header);
        if (auth == null) {
            throw failed(forHandle, "the Authorization: Handle header is malformed");
        }
        HandleSessions.Session session = sessions.find(auth.sessionId());
        if (auth.sessionId() != null && session == null) {
            throw failed(forHandle, "no session " + auth.sessionId() + " is open");
        }
        if (!auth.authenticating()) {
            return Uni.createFrom().item(session == null ? Optional.empty() : Optional.ofNullable(session.caller()));
        }
        if (session == null) {
            throw failed(forHandle, "a challenge answer needs a session (POST /api/sessions)");
        }
        if (header.equals(session.provenBy())) {
            return Uni.createFrom().item(Optional.of(session.caller()));
        }
        return prove(session, auth, header, forHandle).map(s -> Optional.of(s.caller()));
    }

    /** Checks the answer in {@code auth} against the session's nonce; the session, now authenticated, or a 401. */
    public Uni<HandleSessions.Session> prove(HandleSessions.Session session, HandleAuthorization auth, String provenBy, String forHandle) {
        if (auth.unknownVersion()) {
            throw failed(forHandle, "Unknown version in Authorization: Handle");
        }
        if (auth.incomplete()) {
            throw failed(forHandle, "Missing fields in authentication data");
        }
        int colon = auth.get("id").indexOf(':');
        String indexPart = colon > 0 ? auth.get("id").substring(0, colon) : "";
        boolean indexed = indexPart.matches("\\d{1,9}");
        int index = indexed ? Integer.parseInt(indexPart) : 0;
        String handle = indexed ? auth.get("id").substring(colon + 1) : auth.get("id");
        String type = auth.get("type");
        byte[] cnonce = base64(auth.get("cnonce"));
        byte[] signature = base64(auth.get("signature"));
        byte[] answer = cnonce == null || signature == null ? null : answer(type, auth, signature);
        if (answer == null || HandleName.parse(handle) == null) {
            throw failed(forHandle, "Error parsing Authorization: Handle");
        }
        return store.find(handle).map(found -> {
            List<HandleValue> keys = found.map(HandleStore.Stored::values).orElse(List.of()).stream()
                    .filter(v -> type.equals(v.type()) && (index == 0 || v.index() == index))
                    .sorted(Comparator.comparingInt(HandleValue::index)).toList();
            for (HandleValue v : keys) {
                boolean proven = HandleValue.HS_SECKEY.equals(type)
                        ? SecretKeyChallenge.verify(ValueFormats.bytes(v.data()), session.nonce(), cnonce, answer)
                        : PublicKeyChallenge.verify(HandlePublicKeys.of(v.data()), session.nonce(), cnonce, answer);
                if (proven) {
                    return sessions.authenticated(session, HandleAccess.Caller.handleIdentity(v.index(), found.get().handle()), provenBy);
                }
            }
            throw failed(forHandle, "Identity not verified");
        });
    }

    /**
     * The answer in the native protocol's form, as CNRI builds it from the header: for HS_SECKEY the MAC's code
     * byte and the MAC (PBKDF2's salt, iterations and length around it); for HS_PUBKEY the hash name and the
     * signature, each length-prefixed. Null for an algorithm or type CNRI does not name.
     */
    static byte[] answer(String type, HandleAuthorization auth, byte[] signature) {
        String alg = auth.get("alg").toUpperCase(Locale.ROOT);
        String bare = alg.replaceAll("[^A-Z0-9]", "");
        if (HandleValue.HS_SECKEY.equals(type)) {
            Byte code = switch (bare) {
                case "MD5" -> (byte) 1;
                case "SHA", "SHA1" -> (byte) 2;
                case "SHA256", "SHA2" -> (byte) 3;
                case "HMACSHA1" -> (byte) 0x12;
                case "HMACSHA256" -> (byte) 0x13;
                case "PBKDF2HMACSHA1", "PBKDF2WITHHMACSHA1" -> (byte) 0x22;
                default -> null;
            };
            if (code == null) {
                return null;
            }
            byte[] mac = signature;
            if (code == 0x22 && auth.get("salt") != null && auth.get("iterations") != null && auth.get("length") != null) {
                byte[] salt = base64(auth.get("salt"));
                if (salt == null || !auth.get("iterations").matches("\\d{1,9}") || !auth.get("length").matches("\\d{1,9}")) {
                    return null;
                }
                mac = ByteBuffer.allocate(16 + salt.length + signature.length).putInt(salt.length).put(salt)
                        .putInt(Integer.parseInt(auth.get("iterations"))).putInt(Integer.parseInt(auth.get("length")))
                        .putInt(signature.length).put(signature).array();
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream(mac.length + 1);
            out.write(code);
            out.writeBytes(mac);
            return out.toByteArray();
        }
        if (HS_PUBKEY.equals(type)) {
            String hash = switch (bare) {
                case "SHA", "SHA1" -> "SHA1";
                case "SHA256", "SHA2" -> "SHA-256";
                default -> null;
            };
            if (hash == null) {
                return null;
            }
            byte[] name = hash.getBytes(StandardCharsets.US_ASCII);
            return ByteBuffer.allocate(8 + name.length + signature.length).putInt(name.length).put(name)
                    .putInt(signature.length).put(signature).array();
        }
        return null;
    }

    /** Base64 as CNRI's commons-codec decoder reads it: standard or URL alphabet, padding optional. */
    static byte[] base64(String text) {
        if (text == null) {
            return null;
        }
        try {
            return Base64.getDecoder().decode(text.replaceAll("\\s", "").replace('-', '+').replace('_', '/'));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    static HandleException failed(String handle, String why) {
        return new HandleException(401, 401, handle, "Authentication Failed: " + why);
    }
}
