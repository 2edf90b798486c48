package io.ferry.movers.xrootd;

import io.ferry.movers.BearerToken;
import io.ferry.movers.ChecksumAlgorithm;
import io.ferry.movers.MoverException;
import io.ferry.movers.SourceStat;
import io.ferry.movers.StorageCredential;
import io.ferry.movers.TransferProgress;

import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;

import static io.ferry.movers.xrootd.XrootdProtocol.*;

/**
 * root → root third-party copy as xrdcp's {@code --tpc only} does it (XrdClThirdPartyCopyJob): the destination server
 * pulls the file from the source server itself, the bytes never pass through Ferry. The destination is opened with
 * the rendezvous key and where to pull from ({@code tpc.key, tpc.src, tpc.lfn, tpc.stage=copy}), a first kXR_sync
 * sets up the rendezvous, the source is opened with the same key and the destination host ({@code tpc.dst}), and a
 * second kXR_sync runs the copy and answers when it is over. The destination's size and checksum are then compared
 * with the source's; a failed copy leaves no destination file behind. With a {@link BearerToken} for the destination
 * there is no rendezvous: the destination server forwards the token to its puller ({@code ofs.tpc fcreds ztn}), which
 * reads the source over TLS like any client; a different source token is passed on as the source's {@code authz}
 * (in {@code tpc.scgi}, which the destination puts on the puller's command line, as xrdcp's own TPC does).
 */
public final class XrootdThirdPartyCopy {

    /** What the destination holds after the copy: its size and checksum (null when no algorithm was asked). */
    public record Result(long size, String checksum) {
    }

    /** Not static: a native image would otherwise carry one seeded while it was built. */
    private final SecureRandom keys = new SecureRandom();

    private final XrootdAccess access;
    private final Duration copyTimeout;
    private final Duration pollInterval;

    /**
     * @param access      the sessions to both servers
     * @param copyTimeout how long the destination may take to pull the file
     */
    public XrootdThirdPartyCopy(XrootdAccess access, Duration copyTimeout) {
        this(access, copyTimeout, Duration.ofSeconds(1));
    }

    /** @param pollInterval how often the destination's size is looked at while the server copies */
    public XrootdThirdPartyCopy(XrootdAccess access, Duration copyTimeout, Duration pollInterval) {
        this.access = access;
        this.copyTimeout = copyTimeout;
        this.pollInterval = pollInterval;
    }

    /**
     * Makes the destination server pull {@code source}; {@code overwrite} false fails with DEST_EXISTS when the
     * destination is there. With {@code algorithm}, both servers' checksums must agree (CHECKSUM_MISMATCH otherwise).
     */
    public Result copy(URI source, URI destination, boolean overwrite, ChecksumAlgorithm algorithm,
                       StorageCredential sourceCredential, StorageCredential destinationCredential) throws MoverException {
        return copy(source, destination, overwrite, algorithm, sourceCredential, destinationCredential, TransferProgress.unwatched());
    }

    /**
     * As {@link #copy(URI, URI, boolean, ChecksumAlgorithm, StorageCredential, StorageCredential)}, the destination's
     * growing size reported to {@code progress} every {@code pollInterval} (kXR_stat on another session) while the
     * server copies; {@link TransferProgress#abort} stops the copy at the next look (the destination session is
     * closed, which ends the pull) and the copy fails with the abort's code.
     */
    public Result copy(URI source, URI destination, boolean overwrite, ChecksumAlgorithm algorithm,
                       StorageCredential sourceCredential, StorageCredential destinationCredential, TransferProgress progress)
            throws MoverException {
        String phase = "transfer";
        MoverException stopped = progress.aborted(phase);
        if (stopped != null) {
            throw stopped;
        }
        XrootdTarget src = XrootdTarget.of(source, phase);
        XrootdTarget dst = XrootdTarget.of(destination, phase);
        if (src.path().indexOf('&') >= 0 || src.path().indexOf('=') >= 0) {
            // the source path travels inside the destination's opaque part (tpc.lfn), where '&' and '=' separate fields
            throw new MoverException(MoverException.Code.UNSUPPORTED_URL, phase, "a root third-party copy cannot name a source path with '&' or '=': " + source);
        }
        SourceStat before = access.stat(source, algorithm, sourceCredential, phase);
        String key = HexFormat.of().formatHex(keys.generateSeed(12));
        XrootdRequests requests = access.requests();
        XrootdPool pool = requests.pool();

        // With a token the destination pulls as the copy's owner: its server forwards the token it got from Ferry
        // (ofs.tpc fcreds ztn) to the puller, which reads the source over TLS ("xroots") as any client would; no
        // rendezvous at the source. A different source token travels in tpc.scgi as the source's authz.
        boolean delegated = destinationCredential instanceof BearerToken;
        String dstOpaque = "tpc.key=" + key + "&tpc.src=" + src.authority() + "&tpc.lfn=" + src.path()
                + "&tpc.spr=" + (src.tls() || delegated ? "xroots" : "root") + "&tpc.tpr=" + (dst.tls() ? "roots" : "root")
                + "&tpc.dlgon=" + (delegated ? 1 : 0) + "&oss.asize=" + before.size()
                + (delegated && sourceCredential instanceof BearerToken t && !t.equals(destinationCredential)
                ? "&tpc.scgi=authz=Bearer%20" + t.token() : "")
                + "&tpc.stage=copy";
        int flags = OPEN_UPDATE | OPEN_MKPATH | (overwrite ? OPEN_DELETE : OPEN_NEW);
        byte[] openBody = ByteBuffer.allocate(16).putShort((short) MODE_644).putShort((short) flags).array();
        XrootdRequests.Answer target = requests.send(dst, destinationCredential, OPEN, openBody, dstOpaque, "kXR_open (tpc destination)",
                destination, XrootdErrors.Role.DESTINATION, phase);
        XrootdConnection dc = target.connection();
        byte[] dstHandle = ByteBuffer.allocate(16).put(target.response().body(), 0, 4).array();
        XrootdConnection sc = null;
        byte[] srcHandle = null;
        boolean copied = false;
        try {
            dc.call(SYNC, dstHandle, new byte[0]);  // the rendezvous
            if (!delegated) {
                XrootdRequests.Answer opened = authorizePull(requests, src, source, sourceCredential, key, dst, phase);
                sc = opened.connection();
                srcHandle = ByteBuffer.allocate(16).put(opened.response().body(), 0, 4).array();
            }
            Watch watch = new Watch(destination, destinationCredential, progress, dc);
            try {
                dc.callWithin(copyTimeout, SYNC, dstHandle, new byte[0]);  // answers when the pull is over
            } finally {
                watch.stop();
            }
            close(dc, dstHandle);
            copied = true;
        } catch (XrootdError e) {
            MoverException aborted = progress.aborted(phase);
            if (aborted != null) {
                throw aborted;
            }
            throw XrootdErrors.of(XrootdErrors.pullerError(e), "third-party copy to", destination, XrootdErrors.Role.SOURCE, phase);
        } catch (IOException e) {
            MoverException aborted = progress.aborted(phase);
            if (aborted != null) {
                throw aborted;
            }
            throw XrootdErrors.of(e, "third-party copy to", destination, phase);
        } finally {
            if (!copied) {
                close(dc, dstHandle);
            }
            pool.give(dc);
            if (sc != null) {
                close(sc, srcHandle);
                pool.give(sc);
            }
            if (!copied) {
                access.delete(destination, destinationCredential, phase);
            }
        }
        Result result = verify(before, destination, algorithm, destinationCredential, phase);
        try {
            progress.reachedTotal(result.size());
        } catch (IOException e) {
            // stopped after the copy was over: nothing left to stop
        }
        return result;
    }

    /**
     * Looks at the destination's size while the server copies, reporting it as progress; once the copy is stopped
     * it closes the destination session, which makes the server drop the pull and the waiting kXR_sync fail.
     */
    private final class Watch {
        private final Thread thread;
        private volatile boolean over;

        Watch(URI destination, StorageCredential credential, TransferProgress progress, XrootdConnection copying) {
            thread = new Thread(() -> {
                while (!over) {
                    try {
                        progress.reachedTotal(access.stat(destination, null, credential, "transfer").size());
                    } catch (IOException stopped) {
                        copying.close();
                        return;
                    } catch (MoverException notYet) {
                        // the file may not be visible yet; the copy itself reports real failures
                    }
                    try {
                        Thread.sleep(pollInterval.toMillis());  // the pace of looking, not a synchronisation
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "xrootd-tpc-watch");
            thread.setDaemon(true);
            thread.start();
        }

        void stop() {
            over = true;
            thread.interrupt();
        }
    }

    /** Opens the source with the rendezvous key and the destination's host: the source then admits that puller. */
    private static XrootdRequests.Answer authorizePull(XrootdRequests requests, XrootdTarget src, URI source, StorageCredential credential,
                                                       String key, XrootdTarget dst, String phase) throws MoverException {
        String srcOpaque = "tpc.key=" + key + "&tpc.dst=" + hostName(dst.host()) + "&tpc.stage=copy";
        byte[] srcOpen = ByteBuffer.allocate(16).putShort((short) 0).putShort((short) OPEN_READ).array();
        return requests.send(src, credential, OPEN, srcOpen, srcOpaque, "kXR_open (tpc source)", source, XrootdErrors.Role.SOURCE, phase);
    }

    private Result verify(SourceStat before, URI destination, ChecksumAlgorithm algorithm, StorageCredential credential, String phase)
            throws MoverException {
        SourceStat after = access.stat(destination, algorithm, credential, phase);
        if (before.size() >= 0 && after.size() != before.size()) {
            access.delete(destination, credential, phase);
            throw new MoverException(MoverException.Code.SIZE_MISMATCH, phase, destination + " holds " + after.size()
                    + " bytes after the copy, the source " + before.size());
        }
        if (algorithm != null && before.checksum() != null && !before.checksum().equals(after.checksum())) {
            access.delete(destination, credential, phase);
            throw new MoverException(MoverException.Code.CHECKSUM_MISMATCH, phase, destination + ": " + algorithm.digestName() + " "
                    + after.checksum() + " after the copy, the source's " + before.checksum());
        }
        return new Result(after.size(), after.checksum());
    }

    /** kXR_close, its failure making the session unusable rather than failing the copy a second time. */
    private static void close(XrootdConnection c, byte[] handle) {
        if (c.broken()) {
            return;
        }
        try {
            c.call(CLOSE, handle, new byte[0]);
        } catch (IOException | XrootdError e) {
            c.markBroken();
        }
    }

    /** The destination as the source server will see it connect: XRootD compares resolved host names. */
    private static String hostName(String host) {
        try {
            return InetAddress.getByName(host).getCanonicalHostName();
        } catch (UnknownHostException e) {
            return host;
        }
    }
}
