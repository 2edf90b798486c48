package io.ferry.movers.xrootd;

import io.ferry.movers.BearerToken;
import io.ferry.movers.ClientCertificate;
import io.ferry.movers.MoverException;
import io.ferry.movers.StorageCredential;
import io.ferry.movers.StorageTls;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * kXR_auth with the security protocol the credential calls for, among those the server's login answer offers:
 * a {@link BearerToken} is sent with {@code ztn} (over TLS only, as XRootD requires), no credential uses {@code unix}
 * (the mover's user name) or else {@code host} (the server trusts the client's host), a {@link ClientCertificate}
 * (an X.509 proxy chain or certificate) uses {@code gsi} ({@link XrootdGsi}) where the server offers it, else what no
 * credential uses. A server that asks for nothing gets nothing.
 */
final class XrootdSecurity {

    private XrootdSecurity() {
    }

    static void authenticate(XrootdConnection c, String security, StorageTls tls, String phase) throws IOException, XrootdError, MoverException {
        List<String[]> offered = XrootdConnection.protocols(security);
        if (offered.isEmpty()) {
            return;
        }
        StorageCredential credential = c.endpoint.credential();
        String[] gsi = offered.stream().filter(p -> p[0].equals("gsi")).findFirst().orElse(null);
        if (credential instanceof ClientCertificate certificate && gsi != null) {
            gsi(c, certificate, gsi[1], tls, phase);
            return;
        }
        // a client certificate toward a server that takes no gsi is not asked for, as an https server that wants no
        // client certificate ignores one: the copy goes on as the mover's own identity
        String name;
        byte[] credentials;
        if (credential instanceof BearerToken token) {
            name = "ztn";
            credentials = ztn(token);
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

    /** The two gsi exchanges; the server's version must sign its DH parameters (10400 and later). */
    private static void gsi(XrootdConnection c, ClientCertificate certificate, String parameters, StorageTls tls, String phase)
            throws IOException, XrootdError, MoverException {
        int version = 0;
        for (String p : parameters.split(",")) {
            if (p.startsWith("v:")) {
                version = Integer.parseInt(p.substring(2).trim());
            }
        }
        if (version < 10400) {
            throw new MoverException(MoverException.Code.PERMISSION_DENIED, phase, c.endpoint + " speaks gsi version " + version
                    + "; Ferry needs 10400 or later (signed DH parameters)");
        }
        byte[] body = new byte[16];
        body[12] = 'g';
        body[13] = 's';
        body[14] = 'i';
        try {
            XrootdGsi exchange = new XrootdGsi(certificate, tls.serverTrust(), c.endpoint.host());
            XrootdResponse r = c.call(XrootdProtocol.AUTH, body, exchange.certificateRequest());
            if (r.status() == XrootdProtocol.AUTH_MORE) {
                r = c.call(XrootdProtocol.AUTH, body, exchange.certificate(r.body()));
            }
            if (r.status() != XrootdProtocol.OK) {
                throw new MoverException(MoverException.Code.PERMISSION_DENIED, phase, c.endpoint + ": gsi did not end (status " + r.status() + ")");
            }
        } catch (java.security.GeneralSecurityException e) {
            throw new MoverException(MoverException.Code.PERMISSION_DENIED, phase, c.endpoint + ": " + e.getMessage());
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
