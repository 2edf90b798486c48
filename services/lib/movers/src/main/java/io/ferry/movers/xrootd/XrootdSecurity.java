package io.ferry.movers.xrootd;

import io.ferry.movers.BearerToken;
import io.ferry.movers.ClientCertificate;
import io.ferry.movers.MoverException;
import io.ferry.movers.StorageCredential;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * kXR_auth with the security protocol the credential calls for, among those the server's login answer offers:
 * a {@link BearerToken} is sent with {@code ztn} (over TLS only, as XRootD requires), no credential uses {@code unix}
 * (the mover's user name) or else {@code host} (the server trusts the client's host). A server that asks for nothing gets nothing. {@code gsi} (X.509 proxies) is not spoken:
 * a {@link ClientCertificate} is presented in the TLS handshake instead, which XRootD's own checks do not use.
 */
final class XrootdSecurity {

    private XrootdSecurity() {
    }

    static void authenticate(XrootdConnection c, String security, String phase) throws IOException, XrootdError, MoverException {
        List<String[]> offered = XrootdConnection.protocols(security);
        if (offered.isEmpty()) {
            return;
        }
        StorageCredential credential = c.endpoint.credential();
        String name;
        byte[] credentials;
        if (credential instanceof BearerToken token) {
            name = "ztn";
            credentials = ztn(token);
        } else if (credential instanceof ClientCertificate) {
            name = "gsi";
            credentials = null;
        } else if (offered.stream().anyMatch(p -> p[0].equals("unix"))) {
            name = "unix";
            credentials = unix();
        } else {
            // XrdSecProtocolhost: the server trusts the client's host; its credentials are the name, NUL-terminated
            name = "host";
            credentials = new byte[] {'h', 'o', 's', 't', 0};
        }
        boolean isOffered = offered.stream().anyMatch(p -> p[0].equals(name));
        if (!isOffered || credentials == null) {
            throw new MoverException(MoverException.Code.PERMISSION_DENIED, phase, c.endpoint + " wants one of "
                    + offered.stream().map(p -> p[0]).toList() + (credentials == null ? "; Ferry does not speak " + name
                    : "; the copy's credential needs " + name));
        }
        byte[] type = new byte[4];
        byte[] n = name.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(n, 0, type, 0, n.length);
        byte[] body = new byte[16];
        System.arraycopy(type, 0, body, 12, 4);
        XrootdResponse r = c.call(XrootdProtocol.AUTH, body, credentials);
        if (r.status() != XrootdProtocol.OK) {
            throw new MoverException(MoverException.Code.PERMISSION_DENIED, phase, c.endpoint + " wanted more than one " + name
                    + " exchange (status " + r.status() + ")");
        }
    }

    /** XrdSecProtocolztn's TokenResp: "ztn\0", version 0, 'T', two reserved bytes, the length with the NUL, the token, NUL. */
    static byte[] ztn(BearerToken token) {
        byte[] t = token.token().getBytes(StandardCharsets.US_ASCII);
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes(new byte[] {'z', 't', 'n', 0, 0, 'T', 0, 0});
        int len = t.length + 1;
        b.write(len >>> 8);
        b.write(len);
        b.writeBytes(t);
        b.write(0);
        return b.toByteArray();
    }

    /** XrdSecProtocolunix's credentials: "unix\0" and the user name, NUL-terminated. */
    private static byte[] unix() {
        String user = System.getProperty("user.name", "ferry").toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_.-]", "");
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes("unix".getBytes(StandardCharsets.US_ASCII));
        b.write(0);
        b.writeBytes((user.isEmpty() ? "ferry" : user).getBytes(StandardCharsets.US_ASCII));
        b.write(0);
        return b.toByteArray();
    }
}
