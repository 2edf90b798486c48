package io.ferry.dev;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A small PKI made with the openssl command for tests: a CA laid out as on grid hosts (a directory holding
 * {@code <hash>.0} and a signing policy), a server certificate for localhost and 127.0.0.1, and a client
 * certificate whose key is in the traditional PKCS#1 form that grid host keys often have.
 */
public record TestCertificates(Path caDirectory, Path caCertificate, Path serverCertificate, Path serverKey, Path clientCertificate,
                        Path clientKey) {

    public static TestCertificates create(Path dir) throws Exception {
        Files.createDirectories(dir);
        Path caKey = dir.resolve("ca.key");
        Path ca = dir.resolve("ca.pem");
        openssl(dir, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", caKey.toString(), "-out", ca.toString(), "-days", "2",
                "-subj", "/DC=org/DC=ferry/CN=Ferry Test CA", "-addext", "basicConstraints=critical,CA:TRUE",
                "-addext", "keyUsage=critical,keyCertSign,cRLSign");
        Path server = sign(dir, "server", ca, caKey, "/CN=localhost",
                "subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n");
        Path client = sign(dir, "client", ca, caKey, "/DC=org/DC=ferry/CN=transfer-scheduler", "extendedKeyUsage=clientAuth\n");
        Path clientRsa = dir.resolve("client-rsa.key");
        openssl(dir, "rsa", "-in", dir.resolve("client.key").toString(), "-traditional", "-out", clientRsa.toString());
        Path grid = Files.createDirectories(dir.resolve("certificates"));
        String hash = openssl(dir, "x509", "-in", ca.toString(), "-noout", "-hash").trim();
        Files.copy(ca, grid.resolve(hash + ".0"));
        Files.writeString(grid.resolve(hash + ".signing_policy"), "access_id_CA X509 '/DC=org/DC=ferry/CN=Ferry Test CA'\n");
        return new TestCertificates(grid, ca, server, dir.resolve("server.key"), client, clientRsa);
    }

    /**
     * A further server certificate of this CA, for the given DNS names: {@code name.pem} and {@code name.key} beside the
     * CA's. Index 0 is the certificate, 1 its key.
     */
    public Path[] issueServer(String name, String... dnsNames) throws Exception {
        Path dir = caCertificate.getParent();
        String san = "subjectAltName=" + String.join(",", java.util.Arrays.stream(dnsNames).map(n -> "DNS:" + n).toList())
                + "\nextendedKeyUsage=serverAuth\n";
        Path cert = sign(dir, name, caCertificate, dir.resolve("ca.key"), "/CN=" + dnsNames[0], san);
        return new Path[] {cert, dir.resolve(name + ".key")};
    }

    private static Path sign(Path dir, String name, Path ca, Path caKey, String subject, String extensions) throws Exception {
        Path key = dir.resolve(name + ".key");
        Path csr = dir.resolve(name + ".csr");
        Path ext = dir.resolve(name + ".ext");
        Path cert = dir.resolve(name + ".pem");
        Files.writeString(ext, extensions);
        openssl(dir, "req", "-newkey", "rsa:2048", "-nodes", "-keyout", key.toString(), "-out", csr.toString(), "-subj", subject);
        openssl(dir, "x509", "-req", "-in", csr.toString(), "-CA", ca.toString(), "-CAkey", caKey.toString(), "-CAcreateserial",
                "-out", cert.toString(), "-days", "2", "-extfile", ext.toString());
        return cert;
    }

    private static String openssl(Path dir, String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("openssl"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("openssl " + String.join(" ", args) + " failed: " + out);
        }
        return out;
    }
}
