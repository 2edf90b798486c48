package io.ferry.dev.testca;

import javax.security.auth.x500.X500Principal;
import eu.emi.security.authn.x509.impl.OpensslNameUtils;
import eu.emi.security.authn.x509.impl.KeyAndCertCredential;
import org.bouncycastle.asn1.x509.AttributeCertificate;
import org.italiangrid.voms.asn1.VOMSACGenerator;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStoreException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A VOMS server's signing half, for one VO: issues VOMS attribute certificates with voms-api-java's own
 * generator, and writes the {@code vomsdir/<vo>/<host>.lsc} file that makes services trust it.
 *
 * @param vo   the VO it speaks for
 * @param host the VOMS server's host name (named in each AC, and the {@code .lsc} file's name)
 * @param port the VOMS server's port (named in each AC)
 * @param aa   its host credential, issued by a CA the services trust
 */
public record TestVomsSigner(String vo, String host, int port, GridCredential aa) {

    private static final AtomicLong SERIALS = new AtomicLong(1);

    /** A signer for {@code vo} with a new host certificate from {@code ca}. */
    public static TestVomsSigner create(TestGridCa ca, String vo, String host, int port) {
        Instant now = Instant.now();
        String caDn = ca.dn();
        String dn = caDn.substring(0, caDn.lastIndexOf('/')) + "/CN=" + host;
        return new TestVomsSigner(vo, host, port, ca.issueHost(dn, now.minusSeconds(300), now.plus(Duration.ofDays(30))));
    }

    /**
     * An attribute certificate for the user certificate {@code holder} with {@code fqans} in short form
     * ({@code /atlas}, {@code /atlas/Role=production}): written in VOMS's long form, {@code Role} and
     * {@code Capability} always present. The VO's root group is added when missing, as VOMS does.
     */
    public AttributeCertificate attributeCertificate(X509Certificate holder, List<String> fqans, Instant notBefore,
                                                     Instant notAfter) {
        List<String> longForm = new ArrayList<>();
        for (String fqan : fqans) {
            longForm.add(longFqan(fqan));
        }
        String root = longFqan("/" + vo);
        if (!longForm.contains(root)) {
            longForm.add(root);
        }
        try {
            VOMSACGenerator generator = new VOMSACGenerator(new KeyAndCertCredential(aa.key(), aa.chain()));
            return generator.generateVOMSAttributeCertificate(longForm, List.of(), List.of(), holder,
                    BigInteger.valueOf(SERIALS.getAndIncrement()), Date.from(notBefore), Date.from(notAfter), vo, host, port)
                    .toASN1Structure();
        } catch (KeyStoreException e) {
            throw new IllegalStateException("cannot use the VOMS signer's key", e);
        }
    }

    /** {@code /atlas/Role=production} as VOMS writes it: {@code /atlas/Role=production/Capability=NULL}. */
    static String longFqan(String fqan) {
        String f = fqan.contains("/Role=") ? fqan : fqan + "/Role=NULL";
        return f.contains("/Capability=") ? f : f + "/Capability=NULL";
    }

    /**
     * Writes {@code vomsdir/<vo>/<host>.lsc}: the signer's DN, then its CA's, in OpenSSL form. The signer's
     * certificate travels inside each AC; the {@code .lsc} file says which one to believe.
     */
    public Path writeLsc(Path vomsdir) throws IOException {
        X509Certificate cert = aa.certificate();
        Path lsc = vomsdir.resolve(vo).resolve(host + ".lsc");
        Files.createDirectories(lsc.getParent());
        return Files.writeString(lsc, openssl(cert.getSubjectX500Principal()) + "\n"
                + openssl(cert.getIssuerX500Principal()) + "\n");
    }

    /** A DN in OpenSSL's one-line form ({@code /DC=org/DC=ferry/CN=alice}), as trust anchors and .lsc files write it. */
    private static String openssl(X500Principal name) {
        return OpensslNameUtils.convertFromRfc2253(name.getName(X500Principal.RFC2253), false);
    }
}
