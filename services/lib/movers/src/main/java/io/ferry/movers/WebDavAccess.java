package io.ferry.movers;

import java.io.IOException;
import java.net.URI;
import java.nio.channels.ReadableByteChannel;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;

/**
 * WebDAV (http, https, dav, davs) as one side of a copy streamed between protocols: HEAD with {@code Want-Digest},
 * GET, PUT, MKCOL, DELETE over the HTTP mover's kept connections, presenting each side's credential as the HTTP
 * mover does (a bearer token in the header, a proxy in the TLS handshake).
 */
final class WebDavAccess implements StorageAccess, DirectoryListing {

    private final HttpWire wire;
    private final KnownCollections collections;
    private final ExecutorService uploads;

    WebDavAccess(HttpWire wire, KnownCollections collections, ExecutorService uploads) {
        this.wire = wire;
        this.collections = collections;
        this.uploads = uploads;
    }

    @Override
    public Set<String> schemes() {
        return Set.of("http", "https", "dav", "davs");
    }

    @Override
    public SourceStat stat(URI url, ChecksumAlgorithm algorithm, StorageCredential credential, String phase) throws MoverException {
        URI http = WebDavSchemes.asHttp(url);
        Map<String, String> digest = algorithm == null ? Map.of() : Map.of("Want-Digest", algorithm.digestName());
        try (HttpWire.Response head = wire.presenting(credential).send("HEAD", http, BearerHeaders.with(digest, credential))) {
            HttpMover.check(head.status, phase, "source " + url);
            String ranges = head.header("accept-ranges");
            return new SourceStat(head.contentLength(), ranges != null && ranges.contains("bytes"),
                    algorithm == null ? null : algorithm.fromDigestHeaders(head.headers("digest")), HttpDates.parse(head.header("last-modified")));
        } catch (IOException e) {
            throw HttpMover.ioFailure(e, phase);
        }
    }

    @Override
    public boolean exists(URI url, StorageCredential credential, String phase) throws MoverException {
        int status = status("HEAD", WebDavSchemes.asHttp(url), credential, phase);
        if (status == 404) {
            return false;
        }
        HttpMover.check(status, phase, "destination " + url);
        return true;
    }

    @Override
    public ReadableByteChannel read(URI url, StorageCredential credential, String phase) throws MoverException {
        HttpWire.Response get;
        try {
            get = wire.presenting(credential).send("GET", WebDavSchemes.asHttp(url), BearerHeaders.of(credential));
        } catch (IOException e) {
            throw HttpMover.ioFailure(e, phase);
        }
        try {
            HttpMover.check(get.status, phase, "source " + url);
        } catch (MoverException e) {
            get.abort();
            throw e;
        }
        return new ResponseBodyChannel(get);
    }

    @Override
    public Upload write(URI url, long size, StorageCredential credential, String phase) throws MoverException {
        if (size < 0) {
            throw new MoverException(MoverException.Code.UNSUPPORTED_URL, phase, "a WebDAV upload needs the file's size, which the source did not tell");
        }
        try {
            return new WebDavUpload(wire.presenting(credential), WebDavSchemes.asHttp(url), BearerHeaders.of(credential), size, uploads, phase);
        } catch (IOException e) {
            throw HttpMover.ioFailure(e, phase);
        }
    }

    @Override
    public void makeParents(URI base, URI url, StorageCredential credential, String phase) throws MoverException {
        for (URI parent : HttpMover.parents(WebDavSchemes.asHttp(base), WebDavSchemes.asHttp(url))) {
            if (collections.contains(parent)) {
                continue;
            }
            int mk = status("MKCOL", parent, credential, phase);
            // 201 created; 405 already there
            if (mk != 201 && mk != 405) {
                HttpMover.check(mk, phase, "collection " + parent);
            }
            collections.add(parent);
        }
    }

    @Override
    public void delete(URI url, StorageCredential credential, String phase) throws MoverException {
        int status = status("DELETE", WebDavSchemes.asHttp(url), credential, phase);
        if (status != 404) {
            HttpMover.check(status, phase, "file " + url);
        }
    }

    /** The collection tree below {@code dir}, walked with PROPFIND Depth 1 ({@link WebDavListing}). */
    @Override
    public Listing list(URI dir, URI base, StorageCredential credential, java.util.function.Predicate<String> keep, int limit) throws MoverException {
        return new WebDavListing(wire).list(dir, credential, keep, limit);
    }

    private int status(String method, URI http, StorageCredential credential, String phase) throws MoverException {
        try (HttpWire.Response r = wire.presenting(credential).send(method, http, BearerHeaders.of(credential))) {
            r.discard();
            return r.status;
        } catch (IOException e) {
            throw HttpMover.ioFailure(e, phase);
        }
    }
}
