package io.ferry.movers;

import eu.emi.security.authn.x509.impl.CertificateUtils;
import eu.emi.security.authn.x509.proxy.ProxyGenerator;
import eu.emi.security.authn.x509.proxy.ProxyRequestOptions;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Delegation's signing step, as GridSite's {@code GRSTx509MakeProxyCert} does it for davix: the delegation service
 * sends a certificate request for a key pair it keeps, and the delegated proxy's key signs it into a proxy of that
 * proxy (one level deeper, same type), which the service then holds with its own key. The new proxy lives at most
 * {@link #MAX_LIFETIME} and ends a minute before the proxy it comes from, so it is never the longer-lived one.
 */
final class ProxySigning {

    static final Duration MAX_LIFETIME = Duration.ofHours(12);
    /** A proxy closer than this to its end is not worth delegating: the copy would outlive it. */
    static final Duration MIN_LIFETIME = Duration.ofMinutes(2);
    private static final Pattern REQUEST = Pattern.compile("-----BEGIN (?:NEW )?CERTIFICATE REQUEST-----([A-Za-z0-9+/=\\s]+)-----END (?:NEW )?CERTIFICATE REQUEST-----");

    private ProxySigning() {
    }

    /** The new proxy and the delegated proxy's whole chain after it, end-entity first. */
    static X509Certificate[] sign(String requestPem, ClientCertificate proxy, Instant now) throws GeneralSecurityException, IOException {
        Matcher m = REQUEST.matcher(requestPem);
        if (!m.find()) {
            throw new GeneralSecurityException("the delegation service sent no PEM certificate request");
        }
        PKCS10CertificationRequest request = new PKCS10CertificationRequest(Base64.getMimeDecoder().decode(m.group(1)));
        X509Certificate parent = proxy.chain().get(0);
        Instant end = min(parent.getNotAfter().toInstant().minus(Duration.ofMinutes(1)), now.plus(MAX_LIFETIME));
        if (Duration.between(now, end).compareTo(MIN_LIFETIME) < 0) {
            throw new GeneralSecurityException("the delegated proxy ends at " + parent.getNotAfter().toInstant() + ", too soon to delegate");
        }
        ProxyRequestOptions options = new ProxyRequestOptions(proxy.chain().toArray(X509Certificate[]::new), request);
        // a few minutes back, for the service's clock; never before the proxy it comes from
        Instant start = max(now.minus(Duration.ofMinutes(5)), parent.getNotBefore().toInstant());
        options.setValidityBounds(Date.from(start), Date.from(end));
        return ProxyGenerator.generate(options, proxy.key());
    }

    /** The chain as concatenated PEM certificates, what {@code putProxy} takes. */
    static String pem(X509Certificate[] chain) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (X509Certificate c : chain) {
            CertificateUtils.saveCertificate(out, c, CertificateUtils.Encoding.PEM);
        }
        return out.toString(StandardCharsets.US_ASCII);
    }

    private static Instant min(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }

    private static Instant max(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }
}
