package io.ferry.scheduler.engine.tasks;

import io.ferry.scheduler.config.SchedulerConfig;
import io.ferry.movers.DirectoryListing;
import io.ferry.movers.FileMover;
import io.ferry.movers.HttpMover;
import io.ferry.movers.Mover;
import io.ferry.movers.S3Access;
import io.ferry.movers.S3ToWebDavMover;
import io.ferry.movers.StorageAccess;
import io.ferry.movers.MoverException;
import io.ferry.movers.StorageTls;
import io.ferry.movers.TlsSockets;
import io.ferry.movers.WebDavToS3Mover;
import io.ferry.movers.WebDavSchemes;
import io.ferry.movers.xrootd.XrootdAccess;
import io.ferry.movers.xrootd.XrootdMover;
import io.ferry.movers.xrootd.XrootdThirdPartyCopy;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Locale;

/**
 * Picks the mover for a source and destination URL: both file:// (the file mover), both WebDAV (http, https, dav, davs
 * in any mix: the HTTP mover with its parallel streams and third-party copy), both XRootD, s3 → WebDAV and WebDAV → s3
 * (third-party copy where the SEs do it, else streamed), else a mover that streams between the two protocols'
 * {@link StorageAccess} (root, roots, s3, s3s and WebDAV in any mix), one per pair of protocols.
 */
@ApplicationScoped
public class MoverChoice {

    private final SchedulerConfig config;

    @Inject
    MoverChoice(SchedulerConfig config) {
        this.config = config;
    }

    private HttpMover http;
    private FileMover file;
    /** By URL scheme: the protocols a streamed copy can read from and write to. */
    private final Map<String, StorageAccess> accesses = new HashMap<>();
    private final Map<String, Mover> relays = new ConcurrentHashMap<>();
    private S3Access s3;
    private XrootdAccess xrootd;
    private S3ToWebDavMover s3ToWebDav;
    private WebDavToS3Mover webDavToS3;
    private XrootdMover rootToRoot;

    @PostConstruct
    void init() {
        SchedulerConfig.Tls tls = config.engine().tls();
        StorageTls sockets;
        try {
            sockets = TlsSockets.storageTls(tls.caCertificates().map(Path::of), tls.certificate().map(Path::of), tls.key().map(Path::of));
        } catch (IOException | GeneralSecurityException e) {
            // refuse to start rather than fail every https:// copy later
            throw new IllegalStateException("ferry.scheduler.engine.tls is unusable: " + e.getMessage(), e);
        }
        http = new HttpMover(config.engine().ioTimeout(), config.engine().copyMemory().asLongValue(), sockets);
        file = new FileMover(config.engine().fileRoots().orElse(List.of()).stream().map(Path::of).toList());
        SchedulerConfig.Engine engine = config.engine();
        s3 = new S3Access(engine.ioTimeout(), sockets, (int) Math.max(S3Access.MIN_PART_SIZE, engine.s3PartSize().asLongValue()),
                Math.max(1, engine.s3PartsInFlight()), engine.s3PartMemory().asLongValue());
        s3ToWebDav = new S3ToWebDavMover(s3, http);
        webDavToS3 = new WebDavToS3Mover(s3, http);
        xrootd = new XrootdAccess(engine.ioTimeout(), sockets);
        // a pull is watched by the engine's stall detection (the destination's growing size), not by a fixed limit
        rootToRoot = new XrootdMover(http.relay(xrootd, xrootd), xrootd, new XrootdThirdPartyCopy(xrootd, Duration.ofDays(1)));
        for (StorageAccess access : List.of(http.webDav(), s3, xrootd)) {
            access.schemes().forEach(scheme -> accesses.put(scheme, access));
        }
    }

    public Mover forUrls(URI source, URI destination) throws MoverException {
        String s = family(source);
        String d = family(destination);
        if (s.equals("file") && d.equals("file")) {
            return file;
        }
        if (s.equals("http") && d.equals("http")) {
            return http;
        }
        if (s.equals("root") && d.equals("root")) {
            return rootToRoot;
        }
        if (s.equals("s3") && d.equals("http")) {
            return s3ToWebDav;
        }
        if (s.equals("http") && d.equals("s3")) {
            return webDavToS3;
        }
        StorageAccess from = accesses.get(scheme(source));
        StorageAccess to = accesses.get(scheme(destination));
        if (from != null && to != null) {
            return relays.computeIfAbsent(scheme(source) + ">" + scheme(destination), k -> http.relay(from, to));
        }
        throw new MoverException(MoverException.Code.UNSUPPORTED_URL, "prepare",
                "no mover copies " + source.getScheme() + ":// to " + destination.getScheme() + "://");
    }

    /** What lists a directory job's source tree on its protocol. */
    public DirectoryListing listing(URI directory) throws MoverException {
        switch (family(directory)) {
            case "file":
                return file;
            case "s3":
                return s3;
            case "root":
                return xrootd;
            case "http":
                return http.webDavListing();
            default:
                break;
        }
        throw new MoverException(MoverException.Code.UNSUPPORTED_URL, "list", "no directory listing for " + directory.getScheme() + "://");
    }

    /** http for every WebDAV scheme, s3 for s3 and s3s, root for root and roots, else the scheme. */
    static String family(URI u) {
        if (WebDavSchemes.transport(u) != null) {
            return "http";
        }
        String scheme = scheme(u);
        return switch (scheme) {
            case "s3s" -> "s3";
            case "roots" -> "root";
            default -> scheme;
        };
    }

    private static String scheme(URI u) {
        return u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
    }
}
