package io.ferry.movers.xrootd;

import io.ferry.movers.StorageCredential;

/**
 * What a pooled connection is for: one server, plain or TLS from the start, logged in with one credential (null:
 * the mover's own identity). Two files on the same endpoint may share a connection, one after the other.
 */
record XrootdEndpoint(String host, int port, boolean tls, StorageCredential credential) {

    static XrootdEndpoint of(XrootdTarget target, StorageCredential credential) {
        return new XrootdEndpoint(target.host(), target.port(), target.tls(), credential);
    }

    /** The same credential and TLS choice on another server (where a redirect sends the request). */
    XrootdEndpoint redirected(String newHost, int newPort) {
        return new XrootdEndpoint(newHost, newPort, tls, credential);
    }

    @Override
    public String toString() {
        return (tls ? "roots://" : "root://") + host + ":" + port;
    }
}
