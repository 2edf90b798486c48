package io.ferry.dev;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real XRootD server (Debian's xrootd-server with the HTTP and HTTP-TPC plugins of xrootd-server-plugins) as a
 * grid destination SE that pulls files itself: WebDAV over HTTPS (its third-party-copy handler loads only with TLS),
 * checksums offered as RFC 3230 digests, every pull logged. XRootD refuses to run as root; as root it is started
 * as the xrootd user the package creates, owning the server's directory. {@code .ci/run} installs the packages. It
 * can also be an SE that admits only given users' certificates and proxies (the delegated proxy of a job's owner).
 * Its root:// port ({@link #rootPort}, {@link #rootUrl}) serves the same files; {@link Options} add third-party copy,
 * token (ztn) or gsi authentication and a narrower export there.
 */
public final class XrootdServer implements AutoCloseable {

    public final Path dir;
    public final Path data;
    public final int port;
    /** The root:// (XRootD protocol) port; it offers TLS (kXR_ableTLS, roots://) with the same certificate. */
    public final int rootPort;
    private final Process process;

    /**
     * What the server does besides serving files: {@code tpc} lets its root:// port pull files from another XRootD
     * server ({@code ofs.tpc}, the copy run by xrdcp); {@code gsi} wants X.509 authentication on root://
     * ({@link #withGsi()}); {@code tokens} (null: none) admits only bearer tokens of one
     * issuer, over root:// with XRootD's {@code ztn} and checked by the SciTokens plugin (Debian's
     * xrootd-scitokens-plugins); {@code export} is the one exported path ("/" for all); {@code extraConfig} lines are appended to the configuration.
     */
    public record Options(boolean tpc, Tokens tokens, boolean gsi, String export, String extraConfig) {
        public Options {
            extraConfig = extraConfig == null ? "" : extraConfig;
        }

        public static Options plain() {
            return new Options(false, null, false, "/", "");
        }

        public Options withTpc() {
            return new Options(true, tokens, gsi, export, extraConfig);
        }

        public Options withTokens(Tokens newTokens) {
            return new Options(tpc, newTokens, gsi, export, extraConfig);
        }

        /**
         * root:// clients must authenticate with gsi (a certificate or proxy of the test CA); the users' DNs are mapped
         * to their names by the server's grid-mapfile (the constructor's {@code users}), which the authorization then
         * admits; other DNs are refused.
         */
        public Options withGsi() {
            return new Options(tpc, tokens, true, export, extraConfig);
        }

        /** Only the tree below {@code path} (below the data directory) is served; other paths are refused. */
        public Options withExport(String path) {
            return new Options(tpc, tokens, gsi, path, extraConfig);
        }

        public Options withConfig(String lines) {
            return new Options(tpc, tokens, gsi, export, extraConfig + lines + (lines.endsWith("\n") ? "" : "\n"));
        }
    }

    /**
     * Tokens of {@code issuer} whose {@code aud} is {@code audience}, verified with the keys of {@code jwks} (a JWK
     * set's JSON). The SciTokens library fetches keys only over HTTPS with the system's CAs; the test issuer's keys
     * are put in its key cache instead (an SQLite file, written with Debian's sqlite3 command), valid for a day.
     * Scopes are WLCG's ({@code storage.read:/path}, {@code storage.modify:/path}) below the export's root.
     */
    public record Tokens(String issuer, String jwks, String audience) {
    }

    /** Serves a new temporary directory; the server is given {@code pki}'s directory (it reads its key from there). */
    public XrootdServer(TestCertificates pki) throws Exception {
        this(pki, Map.of());
    }

    /**
     * With {@code users} (DN of a user certificate → user name), an SE that wants a client certificate: only those
     * users, with their certificate or an X.509 proxy of it (RFC 3820 and legacy; XRootD validates proxy chains, which
     * nginx's OpenSSL 3 refuses), may read and write; anyone else, without a certificate included, gets 403.
     */
    public XrootdServer(TestCertificates pki, Map<String, String> users) throws Exception {
        this(pki, users, Options.plain());
    }

    /** As {@link #XrootdServer(TestCertificates, Map)}, with {@code options}. */
    public XrootdServer(TestCertificates pki, Map<String, String> users, Options options) throws Exception {
        this.dir = Files.createTempDirectory("ferry-xrootd");
        this.data = Files.createDirectories(dir.resolve("data"));
        Files.createDirectories(dir.resolve("admin"));
        this.port = FreePort.find();
        this.rootPort = FreePort.find();
        String config = "all.export " + options.export() + "\n"
                + "oss.localroot " + data + "\n"
                + "all.adminpath " + dir.resolve("admin") + "\n"
                + "all.pidpath " + dir.resolve("admin") + "\n"
                + "xrd.port " + rootPort + "\n"
                + "xrd.protocol XrdHttp:" + port + " libXrdHttp.so\n"
                + "xrd.tls " + pki.serverCertificate() + " " + pki.serverKey() + "\n"
                + "xrd.tlsca certdir " + pki.caDirectory() + "\n"
                + "http.exthandler xrdtpc libXrdHttpTPC.so\n"
                + "xrootd.chksum adler32\n"
                + "tpc.trace info\n"
                // with tokens, a pull runs with the client's own token (ztn's credentials forwarded in the file BEARER_TOKEN_FILE names)
                + (options.tpc() ? "ofs.tpc " + (options.tokens() == null ? "" : "fcreds ztn =BEARER_TOKEN_FILE ")
                + "logok pgm /usr/bin/xrdcp --server\n" : "")
                + (options.tokens() == null ? "" : tokenConfig(options.tokens()))
                + (options.gsi() ? "xrootd.seclib libXrdSec.so\nsec.protocol gsi -certdir:" + pki.caDirectory() + " -cert:"
                + pki.serverCertificate() + " -key:" + pki.serverKey() + " -gridmap:" + dir.resolve("grid-mapfile")
                + " -gmapopt:2 -crl:0 -dlgpxy:0\nsec.protbind * only gsi\n" : "")
                + options.extraConfig()
                + (users.isEmpty() ? "" : "http.gridmap " + dir.resolve("grid-mapfile") + "\nofs.authorize\n"
                + "acc.authdb " + dir.resolve("authdb") + "\nacc.audit deny grant\n");
        StringBuilder gridmap = new StringBuilder();
        StringBuilder authdb = new StringBuilder();
        users.forEach((dn, name) -> {
            gridmap.append('"').append(dn).append("\" ").append(name).append('\n');
            authdb.append("u ").append(name).append(" / a\n");
        });
        Files.writeString(dir.resolve("grid-mapfile"), gridmap);
        Files.writeString(dir.resolve("authdb"), authdb);
        if (options.tokens() != null) {
            writeTokenFiles(options.tokens());
        }
        Path file = dir.resolve("xrootd.cfg");
        Files.writeString(file, config);
        boolean root = "root".equals(System.getProperty("user.name"));
        if (root) {
            UserPrincipal xrootd = dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("xrootd");
            for (Path tree : List.of(dir, pki.serverKey().getParent())) {
                try (Stream<Path> all = Files.walk(tree)) {
                    for (Path p : all.toList()) {
                        Files.setOwner(p, xrootd);
                    }
                }
            }
        }
        List<String> command = new java.util.ArrayList<>(List.of(Files.isExecutable(Path.of("/usr/bin/xrootd")) ? "/usr/bin/xrootd" : "xrootd"));
        if (root) {
            command.addAll(List.of("-R", "xrootd"));
        }
        if (options.tpc()) {
            // A TPC source admits the puller by the name its address resolves to; IPv4-mapped IPv6 addresses of
            // 127.0.0.1 resolve to no name, so the rendezvous would never match.
            command.addAll(List.of("-I", "v4"));
        }
        command.addAll(List.of("-c", file.toString(), "-l", dir.resolve("xrootd.log").toString(), "-n", "ferry"));
        ProcessBuilder builder = new ProcessBuilder(command);
        if (options.tokens() != null) {
            builder.environment().put("XDG_CACHE_HOME", dir.resolve("cache").toString());
        }
        if (options.tpc()) {
            builder.environment().put("X509_CERT_DIR", pki.caDirectory().toString());  // xrdcp's trust when it pulls over TLS
        }
        builder.redirectErrorStream(true).redirectOutput(dir.resolve("stdout.log").toFile());
        // Debian's xrootd 5.5.3 now and then dies of SIGSEGV while it starts, before it logs a line (about 1 start in
        // 40 here, the same configuration starting fine the next time): such a start is tried again.
        Process started = null;
        for (int attempt = 1; started == null; attempt++) {
            Process p = builder.start();
            try {
                FreePort.awaitListening(p, port, 20_000, () -> "xrootd did not start (Debian's xrootd-server and xrootd-server-plugins "
                        + "are needed; " + (p.isAlive() ? "still running" : "exit status " + p.exitValue()) + "): "
                        + Files.readString(dir.resolve("stdout.log")) + log());
                started = p;
            } catch (IllegalStateException e) {
                if (attempt == 3 || p.isAlive() || p.exitValue() != 128 + 11) {
                    p.destroyForcibly();
                    throw e;
                }
            }
        }
        process = started;
        FreePort.awaitListening(process, rootPort, 20_000, () -> "xrootd's root:// port did not open: " + log());
    }

    private String tokenConfig(Tokens tokens) {
        return "xrootd.seclib libXrdSec.so\n"
                + "sec.protocol ztn\n"
                + "sec.protbind * only ztn\n"
                + "ofs.authorize 1\n"
                + "ofs.authlib libXrdAccSciTokens.so config=" + dir.resolve("scitokens.cfg") + "\n";
    }

    private void writeTokenFiles(Tokens tokens) throws IOException, InterruptedException {
        Files.writeString(dir.resolve("scitokens.cfg"), "[Global]\naudience = " + tokens.audience() + "\nonmissing = deny\n\n"
                + "[Issuer test]\nissuer = " + tokens.issuer() + "\nbase_path = /\n");
        Path cache = Files.createDirectories(dir.resolve("cache").resolve("scitokens"));
        long expires = java.time.Instant.now().plus(java.time.Duration.ofDays(1)).getEpochSecond();
        String keys = "{\"jwks\":" + tokens.jwks() + ",\"expires\":" + expires + ",\"next_update\":" + expires + "}";
        String sql = "CREATE TABLE IF NOT EXISTS keycache (issuer text UNIQUE PRIMARY KEY NOT NULL, keys text NOT NULL);\n"
                + "INSERT INTO keycache VALUES ('" + tokens.issuer().replace("'", "''") + "', '" + keys.replace("'", "''") + "');\n";
        Process sqlite = new ProcessBuilder("sqlite3", cache.resolve("scitokens_cpp.sqllite").toString())
                .redirectErrorStream(true).start();
        try (var in = sqlite.getOutputStream()) {
            in.write(sql.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        String out = new String(sqlite.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (sqlite.waitFor() != 0) {
            throw new IOException("sqlite3 (Debian's sqlite3 package) could not write the SciTokens key cache: " + out);
        }
    }

    /** HTTPS, by name, as its certificate names it. */
    public String url(String path) {
        return "https://localhost:" + port + path;
    }

    /** root:// (or roots://) of {@code path} (absolute), by name, as its certificate names it. */
    public String rootUrl(String scheme, String path) {
        return scheme + "://localhost:" + rootPort + "/" + path;
    }

    /** The same port answers plain HTTP too (and pulls when asked over it). */
    public String httpUrl(String path) {
        return "http://127.0.0.1:" + port + path;
    }

    public Path file(String path) {
        return data.resolve(path.startsWith("/") ? path.substring(1) : path);
    }

    /** CPU time the server has used so far (benchmarks tell what each copy cost it). */
    public long cpuMillis() {
        return ProcessCpu.millis(process.toHandle());
    }

    /**
     * Everything the server logged (its TPC handler logs each pull: PULL_START, TRANSFER_SUCCESS or _FAIL; with users,
     * each decision: {@code grant https alice@… read /path} or {@code deny}).
     */
    public String log() throws IOException {
        Path log = dir.resolve("ferry").resolve("xrootd.log");
        return Files.exists(log) ? Files.readString(log) : "";
    }

    /** A directory under the exported root, owned by the server (it creates files there when it pulls). */
    public void mkdirs(String path) throws IOException {
        Path d = Files.createDirectories(file(path));
        if ("root".equals(System.getProperty("user.name"))) {
            UserPrincipal xrootd = dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("xrootd");
            for (Path p = d; p.startsWith(data); p = p.getParent()) {
                Files.setOwner(p, xrootd);
            }
        }
    }

    @Override
    public void close() throws Exception {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
        DirectoryTrees.delete(dir);
    }

}
