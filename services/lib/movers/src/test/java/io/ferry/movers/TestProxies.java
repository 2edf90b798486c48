package io.ferry.movers;

import eu.emi.security.authn.x509.impl.CertificateUtils;
import eu.emi.security.authn.x509.proxy.ProxyCertificate;
import eu.emi.security.authn.x509.proxy.ProxyCertificateOptions;
import eu.emi.security.authn.x509.proxy.ProxyGenerator;
import io.ferry.dev.TestCertificates;

import java.io.InputStream;
import java.nio.file.Files;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A job's delegated proxy for tests: an RFC 3820 proxy of the test PKI's client certificate (the "user"). */
final class TestProxies {

    private TestProxies() {
    }

    static X509Certificate user(TestCertificates pki) throws Exception {
        try (InputStream in = Files.newInputStream(pki.clientCertificate())) {
            return CertificateUtils.loadCertificate(in, CertificateUtils.Encoding.PEM);
        }
    }

    static ClientCertificate of(TestCertificates pki, Duration lifetime) throws Exception {
        PrivateKey userKey;
        try (InputStream in = Files.newInputStream(pki.clientKey())) {
            userKey = CertificateUtils.loadPrivateKey(in, CertificateUtils.Encoding.PEM, null);
        }
        ProxyCertificateOptions options = new ProxyCertificateOptions(new X509Certificate[] {user(pki)});
        options.setLifetime(lifetime.toSeconds(), TimeUnit.SECONDS);
        ProxyCertificate proxy = ProxyGenerator.generate(options, userKey);
        return new ClientCertificate(proxy.getPrivateKey(), List.of(proxy.getCertificateChain()));
    }
}
