package io.ferry.movers.xrootd;

import io.ferry.movers.ChecksumAlgorithm;
import io.ferry.movers.DirectoryListing;
import io.ferry.movers.MoverException;
import io.ferry.movers.SourceStat;
import io.ferry.movers.StorageAccess;
import io.ferry.movers.StorageCredential;
import io.ferry.movers.StorageTls;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;

import static io.ferry.movers.xrootd.XrootdProtocol.*;

/**
 * root:// and roots:// spoken by Ferry itself (XRootD protocol 5): stat (kXR_stat, checksums by kXR_query
 * kXR_Qcksum), pipelined reads, windowed writes, mkdir, rm. Logged-in sessions are kept per server and credential
 * and reused for the next file, which is what makes many small files cheap. roots:// is TLS from the handshake on;
 * a {@link io.ferry.movers.BearerToken} is sent with XRootD's {@code ztn} protocol, which needs TLS (root:// is
 * upgraded with kXR_wantTLS when the server offers TLS). Shared by every copy; {@link #close()} drops the pool.
 */
public final class XrootdAccess implements StorageAccess, DirectoryListing, AutoCloseable {

    private final XrootdPool pool;
    private final XrootdRequests requests;

    /**
     * @param ioTimeout how long one answer may take (connect, each response), also the wait for a TLS handshake
     * @param tls       the sockets for roots:// and TLS upgrades (trust, and a copy's client certificate)
     */
    public XrootdAccess(Duration ioTimeout, StorageTls tls) {
        this(ioTimeout, tls, 8, Duration.ofMinutes(2));
    }

    /**
     * @param keptPerServer idle sessions kept per server and credential
     * @param maxIdle       how long an idle session is trusted to be still open at the server
     */
    public XrootdAccess(Duration ioTimeout, StorageTls tls, int keptPerServer, Duration maxIdle) {
        this.pool = new XrootdPool(ioTimeout, tls, keptPerServer, maxIdle);
        this.requests = new XrootdRequests(pool);
    }

    @Override
    public Set<String> schemes() {
        return Set.of("root", "roots");
    }

    /** How many sessions were opened so far: reuse shows as fewer sessions than files. */
    public long connectionsOpened() {
        return pool.opened();
    }

    /** Of those, how many run over TLS (roots://, a token, or a server that asked for TLS). */
    public long tlsConnectionsOpened() {
        return pool.openedTls();
    }

    /** Sessions kept idle for the next file now. */
    public int idleConnections() {
        return pool.idle();
    }

    @Override
    public SourceStat stat(URI url, ChecksumAlgorithm algorithm, StorageCredential credential, String phase) throws MoverException {
        XrootdTarget t = XrootdTarget.of(url, phase);
        XrootdResponse r = requests.ask(t, credential, STAT, new byte[16], null, "kXR_stat", url, XrootdErrors.Role.SOURCE, phase);
        long size = statSize(r.text(), url, phase);
        String checksum = algorithm == null ? null : checksum(t, url, algorithm, credential, phase);
        return new SourceStat(size, false, checksum, statMtime(r.text()));
    }

    /**
     * The server's checksum of the file in {@code algorithm} (kXR_query kXR_Qcksum with {@code cks.type}), or null
     * when the server has no such checksum configured or cannot compute it.
     */
    public String checksum(URI url, ChecksumAlgorithm algorithm, StorageCredential credential, String phase) throws MoverException {
        return checksum(XrootdTarget.of(url, phase), url, algorithm, credential, phase);
    }

    private String checksum(XrootdTarget t, URI url, ChecksumAlgorithm algorithm, StorageCredential credential, String phase)
            throws MoverException {
        byte[] body = ByteBuffer.allocate(16).putShort((short) QUERY_CHECKSUM).array();
        XrootdResponse r;
        try {
            r = requests.ask(t, credential, QUERY, body, "cks.type=" + algorithm.digestName(), "kXR_query checksum", url,
                    XrootdErrors.Role.SOURCE, phase);
        } catch (MoverException e) {
            if (e.code() == MoverException.Code.SOURCE_NOT_FOUND || e.code() == MoverException.Code.PERMISSION_DENIED
                    || e.code() == MoverException.Code.TIMEOUT || e.code() == MoverException.Code.CONNECTION_RESET) {
                throw e;
            }
            return null;  // no such checksum configured: the copy computes its own
        }
        // "adler32 1a2b3c4d"
        String[] parts = r.text().trim().split("\\s+");
        if (parts.length != 2 || !parts[0].equalsIgnoreCase(algorithm.digestName())) {
            return null;
        }
        String value = parts[1].toLowerCase(Locale.ROOT);
        if (!ChecksumAlgorithm.isHex(value, 1, algorithm.hexDigits())) {
            return null;
        }
        return "0".repeat(algorithm.hexDigits() - value.length()) + value;
    }

    @Override
    public boolean exists(URI url, StorageCredential credential, String phase) throws MoverException {
        XrootdTarget t = XrootdTarget.of(url, phase);
        try {
            requests.ask(t, credential, STAT, new byte[16], null, "kXR_stat", url, XrootdErrors.Role.SOURCE, phase);
            return true;
        } catch (MoverException e) {
            if (e.code() == MoverException.Code.SOURCE_NOT_FOUND) {
                return false;
            }
            throw e;
        }
    }

    @Override
    public ReadableByteChannel read(URI url, StorageCredential credential, String phase) throws MoverException {
        XrootdTarget t = XrootdTarget.of(url, phase);
        byte[] body = ByteBuffer.allocate(16).putShort((short) 0).putShort((short) (OPEN_READ | OPEN_RETSTAT | OPEN_SEQIO)).array();
        XrootdRequests.Answer a = requests.send(t, credential, OPEN, body, null, "kXR_open", url, XrootdErrors.Role.SOURCE, phase);
        byte[] answer = a.response().body();
        byte[] handle = java.util.Arrays.copyOf(answer, 4);
        long size = answer.length > 12 ? statSize(new XrootdResponse(OK, java.util.Arrays.copyOfRange(answer, 12, answer.length)).text(), url, phase) : -1;
        return new XrootdReadChannel(pool, a.connection(), handle, size, url, phase);
    }

    /**
     * Creates or replaces the file (kXR_delete), its directories made as needed (kXR_mkpath). XRootD truncates at
     * open, so an abandoned upload removes the file, also one it was replacing.
     */
    @Override
    public Upload write(URI url, long size, StorageCredential credential, String phase) throws MoverException {
        return open(url, size, credential, phase, OPEN_DELETE);
    }

    /** Creates the file only when there is none: an existing one fails with DEST_EXISTS (kXR_new). */
    public Upload create(URI url, long size, StorageCredential credential, String phase) throws MoverException {
        return open(url, size, credential, phase, OPEN_NEW);
    }

    private Upload open(URI url, long size, StorageCredential credential, String phase, int how) throws MoverException {
        XrootdTarget t = XrootdTarget.of(url, phase);
        byte[] body = ByteBuffer.allocate(16).putShort((short) MODE_644).putShort((short) (how | OPEN_MKPATH | OPEN_UPDATE)).array();
        XrootdRequests.Answer a = requests.send(t, credential, OPEN, body, null, "kXR_open", url, XrootdErrors.Role.DESTINATION, phase);
        byte[] handle = java.util.Arrays.copyOf(a.response().body(), 4);
        return new XrootdUpload(pool, a.connection(), handle, size, url, phase, () -> delete(url, credential, phase));
    }

    @Override
    public void makeParents(URI base, URI url, StorageCredential credential, String phase) throws MoverException {
        XrootdTarget t = XrootdTarget.of(url, phase);
        String parent = t.parent();
        if (parent.equals("/")) {
            return;
        }
        XrootdTarget dir = new XrootdTarget(t.host(), t.port(), t.tls(), parent);
        byte[] body = ByteBuffer.allocate(16).put((byte) MKDIR_PATH).put(new byte[13]).putShort((short) MODE_755).array();
        try {
            requests.ask(dir, credential, MKDIR, body, null, "kXR_mkdir", url, XrootdErrors.Role.DESTINATION, phase);
        } catch (MoverException e) {
            if (e.code() != MoverException.Code.DEST_EXISTS) {
                throw e;
            }
        }
    }

    @Override
    public void delete(URI url, StorageCredential credential, String phase) throws MoverException {
        XrootdTarget t = XrootdTarget.of(url, phase);
        try {
            requests.ask(t, credential, RM, new byte[16], null, "kXR_rm", url, XrootdErrors.Role.SOURCE, phase);
        } catch (MoverException e) {
            if (e.code() != MoverException.Code.SOURCE_NOT_FOUND) {
                throw e;
            }
        }
    }

    /** The tree below {@code dir}, walked with kXR_dirlist ({@link XrootdListing}). */
    @Override
    public Listing list(URI dir, URI base, StorageCredential credential, java.util.function.Predicate<String> keep, int limit) throws MoverException {
        return new XrootdListing(requests).list(dir, credential, keep, limit);
    }

    /** The size in a stat answer "id size flags modtime"; a directory is no file to copy. */
    /** kXR_stat's answer is "id size flags mtime" (mtime in seconds since the epoch); null when it has none. */
    static java.time.Instant statMtime(String stat) {
        String[] f = stat.trim().split("\\s+");
        try {
            return f.length > 3 ? java.time.Instant.ofEpochSecond(Long.parseLong(f[3])) : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static long statSize(String stat, URI url, String phase) throws MoverException {
        String[] f = stat.trim().split("\\s+");
        try {
            long size = Long.parseLong(f[1]);
            int flags = Integer.parseInt(f[2]);
            if ((flags & STAT_IS_DIR) != 0) {
                throw new MoverException(MoverException.Code.HTTP_ERROR, phase, url + " is a directory");
            }
            return size;
        } catch (RuntimeException e) {
            throw new MoverException(MoverException.Code.HTTP_ERROR, phase, url + ": unreadable stat answer '" + stat + "'");
        }
    }

    XrootdRequests requests() {
        return requests;
    }

    @Override
    public void close() {
        pool.close();
    }
}
