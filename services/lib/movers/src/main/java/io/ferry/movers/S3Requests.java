package io.ferry.movers;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * Requests to an S3 store on the mover's keep-alive {@link HttpWire}, signed with AWS Signature Version 4 when the
 * side has {@link S3Keys} (header authentication), sent anonymously without a credential (a public bucket). Bodies
 * are never hashed into the signature ({@code UNSIGNED-PAYLOAD}): the data streams once, and its integrity is
 * carried by {@code Content-MD5}, which the store checks, and by the ETags Ferry checks after.
 */
final class S3Requests {

    private final HttpWire wire;
    private final Clock clock;

    S3Requests(HttpWire wire, Clock clock) {
        this.wire = wire;
        this.clock = clock;
    }

    /**
     * Refuses a credential an S3 store cannot take (a bearer token: S3 would ignore it and answer as to anyone);
     * S3 keys, a client certificate (presented in TLS) and none at all (anonymous) pass.
     */
    static void checkCredential(StorageCredential credential, S3ObjectUrl url, String phase) throws MoverException {
        if (credential instanceof BearerToken) {
            throw new MoverException(MoverException.Code.PERMISSION_DENIED, phase, "an S3 store takes S3 keys, not a bearer token (" + url + ")");
        }
    }

    /** A request without a body. */
    HttpWire.Response send(String method, S3ObjectUrl url, Map<String, String> query, Map<String, String> headers, StorageCredential credential)
            throws IOException {
        Signed s = sign(method, url, query, headers, credential, S3Signer.EMPTY_SHA256);
        return wire.presenting(credential).send(method, s.uri, s.headers);
    }

    /** A request whose body of {@code length} bytes writes itself. */
    HttpWire.Response send(String method, S3ObjectUrl url, Map<String, String> query, Map<String, String> headers, StorageCredential credential,
                           HttpWire.Body body, long length) throws IOException {
        Signed s = sign(method, url, query, headers, credential, S3Signer.UNSIGNED_PAYLOAD);
        return wire.presenting(credential).send(method, s.uri, s.headers, body, length);
    }

    /**
     * A request whose body is held in memory (a part, a small object) and can therefore be written again: sent once
     * more, newly signed, when the connection fails before an answer (a kept connection the store had just closed).
     * Not after a timeout, which would only double the wait for a store that does not answer.
     */
    HttpWire.Response sendReplayable(String method, S3ObjectUrl url, Map<String, String> query, Map<String, String> headers,
                                     StorageCredential credential, HttpWire.Body body, long length) throws IOException {
        try {
            return send(method, url, query, headers, credential, body, length);
        } catch (SocketTimeoutException e) {
            throw e;
        } catch (IOException e) {
            return send(method, url, query, headers, credential, body, length);
        }
    }

    /** The URI and the headers to send (Authorization, x-amz-date and x-amz-content-sha256 added when signed). */
    private record Signed(URI uri, Map<String, String> headers) {
    }

    private Signed sign(String method, S3ObjectUrl url, Map<String, String> query, Map<String, String> headers, StorageCredential credential,
                        String payloadHash) {
        S3Keys keys = credential instanceof S3Keys k ? k : null;
        boolean virtualHost = keys != null && keys.virtualHostStyle();
        URI uri = url.http(virtualHost, S3Signer.canonicalQuery(query));
        if (keys == null) {
            return new Signed(uri, headers);
        }
        Instant now = clock.instant();
        Map<String, String> out = new HashMap<>(headers);
        out.put("x-amz-date", S3Signer.amzDate(now));
        out.put("x-amz-content-sha256", payloadHash);
        Map<String, String> signed = new HashMap<>(out);
        signed.put("host", url.hostHeader(virtualHost));  // HttpWire writes the Host header itself, from the same URI
        out.put("Authorization", new S3Signer(keys).authorization(method, url.path(virtualHost), query, signed, payloadHash, now));
        return new Signed(uri, out);
    }
}
