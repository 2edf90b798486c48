package io.ferry.resolver.authentication;

import io.ferry.resolver.model.HandleException;
import io.ferry.resolver.model.HandleName;
import io.ferry.resolver.model.HandleValue;
import io.ferry.resolver.model.ValueFormats;
import io.ferry.resolver.repository.HandleStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;

/**
 * HTTP Basic as CNRI's {@code StandardHandleAuthenticator} reads it: the user name is {@code index:handle}
 * (percent-encoded or not; without {@code index:} any of the handle's secret keys), the password a secret key held in
 * that handle's HS_SECKEY value at that index ({@link SecretKeys}). The caller is then the Handle.net identity
 * {@code index:handle}.
 */
@ApplicationScoped
public class SecretKeyAuthentication {

    private static final String BASIC = "basic ";

    final HandleStore store;

    @Inject
    public SecretKeyAuthentication(HandleStore store) {
        this.store = store;
    }

    /** Whether an Authorization header is HTTP Basic. */
    public static boolean isBasic(String authorization) {
        return authorization != null && authorization.regionMatches(true, 0, BASIC, 0, BASIC.length());
    }

    /** The identity the Basic credentials prove, or a failure (401, Handle.net's "authentication failed"). */
    public Uni<HandleAccess.Caller> authenticate(String authorization, String forHandle) {
        byte[] decoded;
        try {
            decoded = Base64.getDecoder().decode(authorization.substring(BASIC.length()).trim());
        } catch (IllegalArgumentException e) {
            throw failed(forHandle, "the Basic credentials are not base64");
        }
        int colon = indexOf(decoded, (byte) ':');
        if (colon < 0) {
            throw failed(forHandle, "the Basic credentials have no password");
        }
        String user = URLDecoder.decode(new String(decoded, 0, colon, StandardCharsets.UTF_8).replace("+", "%2B"), StandardCharsets.UTF_8);
        byte[] password = Arrays.copyOfRange(decoded, colon + 1, decoded.length);
        int userColon = user.indexOf(':');
        int index = 0;
        String handle = user;
        if (userColon > 0 && user.substring(0, userColon).matches("\\d{1,9}")) {
            index = Integer.parseInt(user.substring(0, userColon));
            handle = user.substring(userColon + 1);
        }
        if (HandleName.parse(handle) == null) {
            throw failed(forHandle, "the user name must be index:handle");
        }
        int wanted = index;
        String userHandle = handle;
        return store.find(userHandle).map(found -> {
            for (HandleValue v : found.map(HandleStore.Stored::values).orElse(java.util.List.of())) {
                if (!HandleValue.HS_SECKEY.equals(v.type()) || (wanted != 0 && v.index() != wanted)) {
                    continue;
                }
                byte[] stored = ValueFormats.bytes(v.data());
                if (stored != null && SecretKeys.verifies(stored, password)) {
                    return HandleAccess.Caller.handleIdentity(v.index(), found.get().handle());
                }
            }
            throw failed(forHandle, "no secret key of " + wanted + ":" + userHandle + " matches");
        });
    }

    private static HandleException failed(String handle, String why) {
        return new HandleException(401, 401, handle, "Authentication Failed: " + why);
    }

    private static int indexOf(byte[] bytes, byte b) {
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == b) {
                return i;
            }
        }
        return -1;
    }
}
