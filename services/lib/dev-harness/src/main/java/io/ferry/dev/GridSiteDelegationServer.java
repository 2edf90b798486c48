package io.ferry.dev;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real GridSite delegation service: Debian's Apache httpd with mod_ssl and mod_gridsite running GridSite's own
 * {@code gridsite-delegation.cgi} (package {@code gridsite}) at {@code /gridsite-delegation} over HTTPS on a loopback
 * port, wanting a client certificate or proxy of the test CA. It stores each delegated proxy, with the key it made
 * for it, as {@code proxycache/<URL-encoded DN>/<delegation ID>/userproxy.pem}, which {@link #storedProxies()} reads.
 * <p>
 * mod_gridsite checks client chains against {@code /etc/grid-security/certificates} only (the path is compiled in),
 * so the server runs in a mount namespace of its own ({@code unshare -m}, as root) where a directory with the test CA
 * is mounted over {@code /etc/grid-security}; the host's stays as it is. As root, httpd's workers (the CGI) run as
 * {@code www-data}, which owns the proxy cache. {@code OPENSSL_ALLOW_PROXY_CERTS} lets OpenSSL 3 take RFC 3820 proxies
 * in the handshake, after which mod_gridsite validates the chain.
 */
public final class GridSiteDelegationServer implements AutoCloseable {

    public final Path dir;
    public final int port;
    private final Process process;

    public GridSiteDelegationServer(TestCertificates pki) throws Exception {
        this(pki, null, null);
    }

    /** Whether this process may start it: it mounts its CA in a namespace of its own, which needs root. */
    public static boolean runsHere() {
        return "root".equals(System.getProperty("user.name"));
    }

    /**
     * With {@code copiesTo} (an SE's base URL), the server also answers a {@code COPY} below {@code /dav/} that asks
     * for {@code Credential: gridsite} as dCache's WebDAV door does before a pull it has no proxy for: a 302 to the
     * same path below {@code copiesTo}, naming this delegation service in {@code X-Delegate-To}. (Debian has no
     * server that pulls with a delegated proxy; this is that first step, by Apache's rewrite and header modules.)
     * Other requests below {@code /dav/} read the files in {@code storage}, the SE's own directory, so a client can
     * check what the copy left there through the URL it sent the COPY to.
     */
    public GridSiteDelegationServer(TestCertificates pki, String copiesTo, Path storage) throws Exception {
        if (!runsHere()) {
            throw new IllegalStateException("the GridSite delegation server mounts its CA over /etc/grid-security in a namespace of its own: run as root");
        }
        dir = Files.createTempDirectory("ferry-gridsite");
        for (String d : List.of("docroot", "proxycache", "sessions", "logs", "grid-security/vomsdir", "grid-security/dn-lists")) {
            Files.createDirectories(dir.resolve(d));
        }
        Path cas = Files.createDirectories(dir.resolve("grid-security/certificates"));
        try (Stream<Path> files = Files.list(pki.caDirectory())) {
            for (Path f : files.toList()) {
                Files.copy(f, cas.resolve(f.getFileName()));
            }
        }
        port = FreePort.find();
        String modules = "/usr/lib/apache2/modules/";
        StringBuilder conf = new StringBuilder();
        for (String[] m : new String[][]{{"mpm_prefork", "mod_mpm_prefork"}, {"authz_core", "mod_authz_core"}, {"alias", "mod_alias"}, {"env", "mod_env"},
                {"cgi", "mod_cgi"}, {"rewrite", "mod_rewrite"}, {"headers", "mod_headers"}, {"socache_shmcb", "mod_socache_shmcb"}, {"ssl", "mod_ssl"}, {"gridsite", "mod_gridsite"}}) {
            conf.append("LoadModule ").append(m[0]).append("_module ").append(modules).append(m[1]).append(".so\n");
        }
        conf.append("ServerRoot ").append(dir).append('\n')
                .append("PidFile ").append(dir.resolve("logs/httpd.pid")).append('\n')
                .append("Listen 127.0.0.1:").append(port).append('\n')
                .append("ServerName localhost\nUser www-data\nGroup www-data\n")
                .append("ErrorLog ").append(dir.resolve("logs/error.log")).append("\nLogLevel info\n")
                // the CGI keeps its proxies in DOCUMENT_ROOT/../proxycache
                .append("DocumentRoot ").append(dir.resolve("docroot")).append('\n')
                .append("StartServers 1\nMinSpareServers 1\nMaxSpareServers 2\n")
                .append("SSLEngine on\nSSLCertificateFile ").append(pki.serverCertificate()).append('\n')
                .append("SSLCertificateKeyFile ").append(pki.serverKey()).append('\n')
                .append("SSLCACertificatePath ").append(cas).append('\n')
                .append("SSLVerifyClient require\nSSLVerifyDepth 10\nSSLOptions +ExportCertData +StdEnvVars\n")
                .append("GridSiteSessionsDir ").append(dir.resolve("sessions")).append('\n')
                .append("ScriptAlias /gridsite-delegation /usr/lib/gridsite/cgi-bin/gridsite-delegation.cgi\n")
                .append("<Location /gridsite-delegation>\n  GridSiteAuth off\n  GridSiteEnvs on\n  GridSiteGSIProxyLimit 9\n")
                .append("  SetEnv OPENSSL_CONF ").append(dir.resolve("openssl-cgi.cnf")).append('\n')
                .append("  Require all granted\n</Location>\n");
        if (copiesTo != null) {
            conf.append("RewriteEngine on\nRewriteCond %{REQUEST_METHOD} =COPY\nRewriteCond %{HTTP:Credential} =gridsite\n")
                    .append("RewriteRule ^/dav/(.*)$ ").append(copiesTo.replaceAll("/+$", "")).append("/$1 [R=302,L,NE,E=FERRY_DELEGATE:1]\n")
                    .append("Header always set X-Delegate-To \"").append(url()).append("\" env=FERRY_DELEGATE\n")
                    .append("Alias /dav/ ").append(storage).append("/\n<Directory ").append(storage).append(">\n  Require all granted\n</Directory>\n");
        }
        // The CGI makes 1024-bit RSA keys for the proxies it receives (GridSite's default size) and then matches each
        // proxy to its key through an SSL_CTX, which OpenSSL 3 at Debian's security level 2 refuses for such keys:
        // the CGI runs at level 1.
        Files.writeString(dir.resolve("openssl-cgi.cnf"), "openssl_conf = ferry\n[ferry]\nssl_conf = ferry_ssl\n[ferry_ssl]\n"
                + "system_default = ferry_default\n[ferry_default]\nCipherString = DEFAULT@SECLEVEL=1\n");
        Path file = dir.resolve("httpd.conf");
        Files.writeString(file, conf);
        UserPrincipal www = dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("www-data");
        for (String owned : List.of("proxycache", "sessions")) {
            Files.setOwner(dir.resolve(owned), www);
        }
        // www-data reaches the cache through the temporary directory
        Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        String start = "mount --bind " + dir.resolve("grid-security") + " /etc/grid-security && exec /usr/sbin/apache2 -DFOREGROUND -f " + file;
        // a session of its own: httpd stops by signalling its whole process group, which would otherwise be the JVM's
        ProcessBuilder pb = new ProcessBuilder("setsid", "unshare", "-m", "--propagation", "private", "sh", "-c", start)
                .redirectErrorStream(true).redirectOutput(dir.resolve("logs/stdout.log").toFile());
        pb.environment().put("OPENSSL_ALLOW_PROXY_CERTS", "1");
        process = pb.start();
        FreePort.awaitListening(process, port, 20_000, () -> "apache2 with mod_gridsite did not start (Debian's apache2-bin and gridsite are "
                + "needed): " + Files.readString(dir.resolve("logs/stdout.log")) + log());
    }

    /** The delegation service's endpoint, as {@code X-Delegate-To} would name it. */
    public String url() {
        return "https://localhost:" + port + "/gridsite-delegation";
    }

    /** Every proxy the service has stored (each file: the proxy chain and the key the service made for it, PEM). */
    public List<Path> storedProxies() throws IOException {
        try (Stream<Path> all = Files.walk(dir.resolve("proxycache"))) {
            return all.filter(p -> p.getFileName().toString().equals("userproxy.pem")).sorted().toList();
        }
    }

    public String log() throws IOException {
        Path log = dir.resolve("logs/error.log");
        return Files.exists(log) ? Files.readString(log) : "";
    }

    @Override
    public void close() throws Exception {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(5, TimeUnit.SECONDS);
        }
        DirectoryTrees.delete(dir);
    }
}
