package io.ferry.movers;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * HTTP third-party copy as WLCG storage does it, so the bytes never pass through Ferry: in pull mode a WebDAV
 * {@code COPY} to the destination with a {@code Source} header asks the destination SE to fetch the file itself; in
 * push mode a {@code COPY} to the source with a {@code Destination} header asks the source SE to send it (to a
 * pre-signed S3 PUT URL). Either way the answer streams performance markers (bytes moved so far, per stripe) and ends
 * in {@code success: …} or {@code failure: …}; the markers are the copy's progress, so stall detection and cancelling
 * work as for a streamed copy (closing the connection makes the SE stop).
 */
final class ThirdPartyCopy {

    /** The destination does not do COPY after all (405/501): the file is streamed instead. */
    static final class Unsupported extends Exception {
        Unsupported(String message) {
            super(message, null, false, false);
        }
    }

    /** Which SE takes the COPY: the destination, which pulls from the source, or the source, which pushes to the destination. */
    private enum Mode {
        PULL, PUSH
    }

    private static final Pattern STATUS = Pattern.compile("status code (\\d{3})");
    private static final int MAX_LINE = 8192;

    private ThirdPartyCopy() {
    }

    /**
     * Runs the copy; answers the bytes the destination reported last (the caller checks the result itself). The SE
     * is told not to replace an existing file unless the copy may ({@code Overwrite: F}), so a COPY it accepts writes
     * a file of this attempt's ({@code attempt.wrote}), and one it refuses left the destination as it was.
     * <p>
     * A source reached with the job's delegated proxy is asked for with {@code Credential: gridsite}: an SE that wants
     * the proxy names its delegation service in {@code X-Delegate-To} (dCache does so on a 302 to the COPY itself; a
     * 401 naming one is taken the same way), the proxy is delegated there ({@link GridSiteDelegation}) and the COPY sent once more, to the
     * redirect's target. An SE that knows no delegation refuses the credential type with 400 before it starts
     * anything (XRootD's TPC handler: "unsupported Credential type"); the COPY is then sent with {@code Credential:
     * none}, and the SE pulls with its own identity as it would for a job without a proxy.
     */
    static long pull(HttpWire wire, CopyRequest req, TransferProgress progress, HttpMover.Attempt attempt)
            throws IOException, MoverException, Unsupported {
        Map<String, String> headers = new HashMap<>(Map.of("Source", req.source().toString(), "Overwrite", req.overwrite() ? "T" : "F",
                "X-Number-Of-Streams", Integer.toString(Math.max(1, req.streams()))));
        headers.putAll(pullCredential(req.credentials().source()));
        // the destination's own token authorises the COPY itself
        headers.putAll(BearerHeaders.of(req.credentials().destination()));
        // the SE that pulls is the one to mark the flow and to archive the file (gfal2 sends FTS3's scitag and
        // archive metadata on the COPY the same way)
        headers.putAll(req.towardDestination(Map.of()));
        ClientCertificate proxy = req.credentials().source() instanceof ClientCertificate c ? c : null;
        URI target = req.destination();
        boolean delegated = false;
        for (;;) {
            MoverException stopped = progress.aborted("transfer");
            if (stopped != null) {
                throw stopped;
            }
            HttpWire.Response r = wire.sendOnce("COPY", target, headers);
            try {
                String delegateTo = r.header("X-Delegate-To");
                if (proxy != null && delegateTo != null && (r.status == 401 || (r.status >= 300 && r.status < 400))) {
                    String location = r.header("Location");
                    r.discard();
                    if (delegated) {
                        throw new MoverException(MoverException.Code.PERMISSION_DENIED, "transfer", "the destination " + req.destination()
                                + " asked for a delegated proxy again after it was delegated to " + delegateTo);
                    }
                    delegate(wire, target, delegateTo, proxy);
                    delegated = true;
                    if (location != null && r.status < 400) {
                        target = target.resolve(location);
                        if (!sameOrigin(target, req.destination())) {
                            // the destination's token is for the host it was given for only
                            headers.remove("Authorization");
                        }
                    }
                    continue;
                }
                if (proxy != null && r.status == 400 && "gridsite".equals(headers.get("Credential"))) {
                    String body = firstLine(r.body);
                    if (body.toLowerCase(java.util.Locale.ROOT).contains("credential")) {
                        r.close();
                        headers.put("Credential", "none");
                        continue;
                    }
                    r.close();
                    HttpMover.check(r.status, "transfer", "destination " + req.destination() + " (" + body + ")");
                }
                if (proxy != null && delegateTo != null && !delegated && r.status < 300) {
                    // an SE that waits for the proxy while the COPY's answer is open (the markers come once it has it)
                    delegate(wire, target, delegateTo, proxy);
                    delegated = true;
                }
                return answer(r, req, Mode.PULL, req.source(), progress, attempt);
            } finally {
                r.close();
            }
        }
    }

    /**
     * Asks the source SE (over {@code wire}, presenting the copy's source credential) to send the file to {@code target},
     * a URL that carries its own authorisation (a pre-signed S3 PUT): {@code Credential: none}, since there is nothing
     * to delegate, and no {@code TransferHeader…} header, so the SE forwards none of ours to the target. Answers the
     * bytes the source reported last; {@code attempt.wrote} once the SE took the COPY on.
     */
    static long push(HttpWire wire, CopyRequest req, URI target, TransferProgress progress, HttpMover.Attempt attempt)
            throws IOException, MoverException, Unsupported {
        MoverException stopped = progress.aborted("transfer");
        if (stopped != null) {
            throw stopped;
        }
        Map<String, String> headers = new HashMap<>(Map.of("Destination", target.toString(), "Credential", "none",
                "X-Number-Of-Streams", Integer.toString(Math.max(1, req.streams()))));
        // the source's own token authorises the COPY; the SciTag marks the flow the source SE sends
        headers.putAll(BearerHeaders.of(req.credentials().source()));
        headers.putAll(req.marked(Map.of()));
        try (HttpWire.Response r = wire.sendOnce("COPY", req.source(), headers)) {
            return answer(r, req, Mode.PUSH, target, progress, attempt);
        }
    }

    /**
     * The answer to the COPY: the refusals, else its markers to the end. {@code remote}: the URL the SE copies from
     * (pull) or to (push).
     */
    private static long answer(HttpWire.Response r, CopyRequest req, Mode mode, URI remote, TransferProgress progress, HttpMover.Attempt attempt)
            throws IOException, MoverException, Unsupported {
        String answering = mode == Mode.PULL ? "destination " + req.destination() : "source " + req.source();
        if (r.status == 405 || r.status == 501) {
            r.discard();
            throw new Unsupported("the " + answering + " answered COPY with HTTP " + r.status);
        }
        attempt.wrote = r.status < 300;
        if (r.status == 412 && mode == Mode.PULL) {
            r.discard();
            throw MoverException.destinationExists("transfer", req.destination());
        }
        if (r.status >= 300) {
            String body = firstLine(r.body);
            r.close();
            HttpMover.check(r.status, "transfer", answering + " (" + body + ")");
        }
        // the markers may come seconds apart: a cancel closes the connection (and so stops the SE's copy) at once
        progress.onAbort(r::abort);
        try {
            return markers(r.body, progress, mode, remote);
        } finally {
            progress.onAbort(null);
        }
    }

    /** A file's checksum in the copy's algorithm, found by reading it whole (a storage that tells none). */
    interface Sum {
        String read() throws MoverException;
    }

    /**
     * The checks of a finished third-party copy, whose data the mover never saw: the destination's size ({@code copied})
     * against the job's, else the source's ({@code stat}); then, when the copy checks a checksum, the destination's (its
     * storage's, else {@code destinationSum}) against the job's checksum, else the source SE's, else {@code sourceSum}:
     * the checksum modes keep their meaning. Answers the destination's checksum (null: none checked, none told).
     */
    static String verify(CopyRequest req, SourceStat stat, SourceStat copied, Sum destinationSum, Sum sourceSum) throws MoverException {
        long expected = req.expectedSize() != null ? req.expectedSize() : stat.size();
        if (copied.size() < 0 || (expected >= 0 && copied.size() != expected)) {
            throw new MoverException(MoverException.Code.SIZE_MISMATCH, "transfer",
                    "the destination has " + copied.size() + " bytes after the third-party copy, " + expected + " expected");
        }
        String sum = copied.checksum();
        if (!req.checksums()) {
            return sum;
        }
        if (sum == null) {
            sum = destinationSum.read();
        }
        String reference = req.expectedChecksum() != null ? req.expectedChecksum() : stat.checksum() != null ? stat.checksum() : sourceSum.read();
        if (!reference.equalsIgnoreCase(sum)) {
            throw req.expectedChecksum() != null ? ChecksumMismatch.jobAndDestination(req.algorithm(), reference, sum)
                    : ChecksumMismatch.sourceAndDestination(req.algorithm(), reference, sum);
        }
        return sum;
    }

    /**
     * Delegates the proxy to the first https endpoint {@code X-Delegate-To} names (a space-separated list of absolute
     * or relative URLs, as dCache and davix have it).
     */
    private static void delegate(HttpWire wire, URI copy, String delegateTo, ClientCertificate proxy) throws IOException, MoverException {
        URI endpoint = null;
        for (String candidate : delegateTo.trim().split("\\s+")) {
            if (candidate.isEmpty()) {
                continue;
            }
            URI u = copy.resolve(candidate);
            if ("https".equalsIgnoreCase(u.getScheme())) {
                endpoint = u;
                break;
            }
        }
        if (endpoint == null) {
            throw new MoverException(MoverException.Code.PERMISSION_DENIED, "transfer",
                    "the destination asks for a delegated proxy but names no https delegation service: " + delegateTo);
        }
        GridSiteDelegation.delegate(wire, endpoint, proxy);
    }

    private static boolean sameOrigin(URI a, URI b) {
        return a.getScheme().equalsIgnoreCase(b.getScheme()) && String.valueOf(a.getHost()).equalsIgnoreCase(String.valueOf(b.getHost()))
                && a.getPort() == b.getPort();
    }

    /**
     * What the destination presents to the source when it pulls, as WLCG HTTP-TPC defines it: the source's bearer
     * token as {@code TransferHeaderAuthorization} (the SE sends each {@code TransferHeader…} header on to the source
     * with the prefix taken off) and {@code Credential: none}, since no X.509 credential is delegated; the job's
     * delegated proxy as {@code Credential: gridsite} (the SE asks for the proxy to be delegated to it). The mover's
     * own identity toward the source delegates none.
     */
    static Map<String, String> pullCredential(StorageCredential source) {
        if (source instanceof BearerToken token) {
            return Map.of("TransferHeaderAuthorization", token.authorization(), "Credential", "none");
        }
        if (source instanceof ClientCertificate) {
            return Map.of("Credential", "gridsite");
        }
        return Map.of("Credential", "none");
    }

    /** Follows the markers to the final line; the bytes per stripe add up to the progress. */
    private static long markers(InputStream body, TransferProgress progress, Mode mode, URI remote) throws IOException, MoverException {
        Map<Integer, Long> stripes = new HashMap<>();
        int stripe = 0;
        long reported = 0;
        for (String line; (line = line(body)) != null; ) {
            line = line.trim();
            if (line.startsWith("Stripe Index:")) {
                stripe = (int) number(line);
            } else if (line.startsWith("Stripe Bytes Transferred:")) {
                stripes.put(stripe, number(line));
            } else if (line.equals("End")) {
                long total = stripes.values().stream().mapToLong(Long::longValue).sum();
                if (total > reported) {
                    progress.moved((int) Math.min(Integer.MAX_VALUE, total - reported));  // fails once the copy is stopped
                    reported = total;
                }
            } else if (line.startsWith("success")) {
                return reported;
            } else if (line.startsWith("failure") || line.startsWith("aborted")) {
                throw failure(line, mode, remote);
            }
        }
        throw new IOException("the destination ended the copy's answer without success or failure");
    }

    /**
     * The SE's failure, with the status the remote side gave when it says one (a pulled source's 404, 403, 5xx; a push
     * target's 403, 5xx, or 404 for a bucket that is not there).
     */
    private static MoverException failure(String line, Mode mode, URI remote) {
        Matcher m = STATUS.matcher(line);
        String message = "third-party copy " + (mode == Mode.PULL ? "from " : "to ") + remote + " failed: " + line;
        if (!m.find()) {
            return new MoverException(MoverException.Code.CONNECTION_RESET, "transfer", message);
        }
        int status = Integer.parseInt(m.group(1));
        MoverException.Code code = status == 404 ? (mode == Mode.PULL ? MoverException.Code.SOURCE_NOT_FOUND : MoverException.Code.HTTP_ERROR)
                : status == 401 || status == 403 ? MoverException.Code.PERMISSION_DENIED
                : status >= 500 ? MoverException.Code.HTTP_5XX : MoverException.Code.HTTP_ERROR;
        return new MoverException(code, "transfer", message);
    }

    private static long number(String line) {
        try {
            return Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** One line of the answer (LF or CRLF), null at its end; overlong lines are cut. */
    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0 && b != '\n') {
            if (out.size() < MAX_LINE) {
                out.write(b);
            }
        }
        if (b < 0 && out.size() == 0) {
            return null;
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private static String firstLine(InputStream body) {
        try {
            String l = line(body);
            return l == null ? "no explanation" : l.trim();
        } catch (IOException e) {
            return "no explanation";
        }
    }
}
