package io.ferry.dev.testca;

import eu.emi.security.authn.x509.proxy.ProxyType;
import org.bouncycastle.asn1.x509.AttributeCertificate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;

/**
 * The dev stack's grid PKI, kept in one directory between runs: a CA, one VOMS signer per VO, a user certificate,
 * and the trust directories services read. {@code ./ferry up} points the services at {@link #certificates()} and
 * {@link #vomsdir()}; {@code ./ferry proxy --vo atlas [--fqan /atlas/Role=production]} calls {@link #writeProxy}.
 *
 * <pre>
 * dir/ca/ca.pem, ca.key                 the CA (key readable by the owner only)
 * dir/certificates/&lt;hash&gt;.0 ...          trust anchors with signing policy and a fresh CRL
 * dir/voms/&lt;vo&gt;/hostcert.pem, hostkey.pem  each VO's VOMS signer
 * dir/vomsdir/&lt;vo&gt;/&lt;host&gt;.lsc             which signer speaks for the VO
 * dir/user/usercert.pem, userkey.pem     the dev user
 * dir/host/hostcert.pem, hostkey.pem     the services' HTTPS certificate (localhost, 127.0.0.1)
 * </pre>
 */
public final class DevGridPki {

    public static final String CA_DN = "/DC=org/DC=ferry/CN=Ferry Dev CA";
    public static final String USER_DN = "/DC=org/DC=ferry/OU=Users/CN=ferry-dev";
    public static final String VOMS_HOST = "voms.ferry.local";
    public static final int VOMS_PORT = 15000;
    public static final String HOST_DN = "/DC=org/DC=ferry/CN=localhost";

    private final Path dir;
    private final TestGridCa ca;
    private final GridCredential user;

    private DevGridPki(Path dir, TestGridCa ca, GridCredential user) {
        this.dir = dir;
        this.ca = ca;
        this.user = user;
    }

    /** The PKI in {@code dir}, made there on first use; the trust anchors are rewritten so the CRL is fresh. */
    public static DevGridPki loadOrCreate(Path dir) throws IOException {
        TestGridCa ca = TestGridCa.of(loadOrMake(dir.resolve("ca/ca.pem"), dir.resolve("ca/ca.key"),
                () -> TestGridCa.create(CA_DN, Duration.ofDays(3650)).credential()));
        ca.writeTrustAnchors(dir.resolve("certificates"));
        GridCredential user = loadOrMake(dir.resolve("user/usercert.pem"), dir.resolve("user/userkey.pem"), () -> {
            Instant now = Instant.now();
            return ca.issueUser(USER_DN, now.minusSeconds(300), now.plus(Duration.ofDays(365)));
        });
        return new DevGridPki(dir, ca, user);
    }

    /** The credential in {@code certificate} and {@code key}, or a new one from {@code make}, written there. */
    private static GridCredential loadOrMake(Path certificate, Path key, Supplier<GridCredential> make) throws IOException {
        if (Files.exists(certificate) && Files.exists(key)) {
            return GridCredential.load(certificate, key);
        }
        GridCredential made = make.get();
        made.writeCertificateAndKey(certificate, key);
        return made;
    }

    public Path certificates() {
        return dir.resolve("certificates");
    }

    public Path vomsdir() {
        return dir.resolve("vomsdir");
    }

    public GridCredential user() {
        return user;
    }

    /** The services' HTTPS certificate for {@code localhost} and {@code 127.0.0.1}, made on first use. */
    public GridCredential host() throws IOException {
        return loadOrMake(hostCertificateFile(), hostKeyFile(), () -> {
            Instant now = Instant.now();
            return ca.issueHost(HOST_DN, now.minusSeconds(300), now.plus(Duration.ofDays(365)), "localhost", "127.0.0.1");
        });
    }

    public Path hostCertificateFile() {
        return dir.resolve("host/hostcert.pem");
    }

    public Path hostKeyFile() {
        return dir.resolve("host/hostkey.pem");
    }

    /** The CA's certificate, for clients that check the services' HTTPS certificate. */
    public X509Certificate caCertificate() {
        return ca.certificate();
    }

    /** The VOMS signer for {@code vo}, made (and named in the vomsdir) on first use. */
    public TestVomsSigner signer(String vo) throws IOException {
        if (!vo.matches("[a-z0-9][a-z0-9._-]*")) {
            throw new IllegalArgumentException("a VO name is lower-case letters, digits, '.', '_' and '-': " + vo);
        }
        Path home = dir.resolve("voms").resolve(vo);
        TestVomsSigner signer = new TestVomsSigner(vo, VOMS_HOST, VOMS_PORT, loadOrMake(home.resolve("hostcert.pem"),
                home.resolve("hostkey.pem"), () -> TestVomsSigner.create(ca, vo, VOMS_HOST, VOMS_PORT).aa()));
        signer.writeLsc(vomsdir());
        return signer;
    }

    /**
     * Writes an RFC 3820 proxy of the dev user to {@code file}, valid for {@code lifetime}, with a VOMS AC for
     * {@code vo} carrying {@code fqans} (short form; the VO's root group is always added). The file is what
     * {@code voms-proxy-init} writes: curl's {@code --cert}/{@code --key} and the FTS3 client read it.
     */
    public Path writeProxy(String vo, List<String> fqans, Duration lifetime, Path file) throws IOException {
        for (String fqan : fqans) {
            if (!fqan.startsWith("/" + vo + "/") && !fqan.equals("/" + vo)) {
                throw new IllegalArgumentException("FQAN " + fqan + " is not of VO " + vo);
            }
        }
        Instant now = Instant.now();
        Instant from = now.minusSeconds(300);
        Instant until = now.plus(lifetime);
        AttributeCertificate ac = signer(vo).attributeCertificate(user.certificate(), fqans, from, until);
        return user.proxy(ProxyType.RFC3820, from, until, List.of(ac)).writeProxy(file);
    }
}
