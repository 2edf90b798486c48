package io.ferry.movers;

import io.ferry.dev.DirectoryTrees;
import io.ferry.dev.NginxWebDav;
import io.ferry.dev.TestCertificates;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLSocketFactory;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The HTTP mover over TLS against a real nginx that, like grid SEs, presents a certificate of a grid CA and wants the
 * client's: the CA comes from a grid-style certificates directory, the client certificate from PEM files.
 */
class HttpsMoverTest {

    static Path dir;
    static TestCertificates pki;
    static NginxWebDav nginx;

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("ferry-tls");
        pki = TestCertificates.create(dir);
        nginx = new NginxWebDav(new NginxWebDav.Tls(pki.serverCertificate(), pki.serverKey(), pki.caCertificate()));
    }

    @AfterAll
    static void stop() throws Exception {
        nginx.close();
        DirectoryTrees.delete(dir);
    }

    static HttpMover mover(Optional<Path> ca, Optional<Path> certificate, Optional<Path> key) throws Exception {
        SSLSocketFactory tls = TlsSockets.factory(ca, certificate, key);
        return new HttpMover(Duration.ofSeconds(60), 64L << 20, tls);
    }

    static CopyRequest request(String src, String dst, Long size, String adler, int streams) {
        return new CopyRequest(URI.create(nginx.httpsUrl(src)), URI.create(nginx.httpsUrl(dst)), size, adler, "both", false, streams,
                URI.create(nginx.httpsUrl("/se-b")));
    }

    @Test
    void filesArriveWholeOverTlsWithTheGridsCasAndAClientCertificate() throws Exception {
        HttpMover mover = mover(Optional.of(pki.caDirectory()), Optional.of(pki.clientCertificate()), Optional.of(pki.clientKey()));
        long size = (70L << 20) + 3;
        String adler = HttpMoverTest.write(nginx.file("/se-a/tls/big.bin"), size, 11);
        CopyResult big = mover.copy(request("/se-a/tls/big.bin", "/se-b/tls/a/big.bin", size, adler, 4));
        assertEquals(4, big.streams(), "Range streams over TLS");
        assertEquals(adler, big.checksum());
        assertEquals(-1, Files.mismatch(nginx.file("/se-a/tls/big.bin"), nginx.file("/se-b/tls/a/big.bin")));

        String small = HttpMoverTest.write(nginx.file("/se-a/tls/small.bin"), 300_000, 12);
        for (int i = 0; i < 2; i++) {
            CopyResult r = mover.copy(request("/se-a/tls/small.bin", "/se-b/tls/small" + i + ".bin", 300_000L, small, 1));
            assertEquals(small, r.checksum());
            assertEquals(-1, Files.mismatch(nginx.file("/se-a/tls/small.bin"), nginx.file("/se-b/tls/small" + i + ".bin")));
        }
    }

    /** Rucio's WebDAV SEs are davs:// (and dav://): the mover speaks them as https (and http), parents and all. */
    @Test
    void davsUrlsAreMovedAsHttps() throws Exception {
        HttpMover mover = mover(Optional.of(pki.caDirectory()), Optional.of(pki.clientCertificate()), Optional.of(pki.clientKey()));
        String adler = HttpMoverTest.write(nginx.file("/se-a/davs/f.bin"), 500_000, 21);
        URI source = URI.create(nginx.httpsUrl("/se-a/davs/f.bin").replaceFirst("^https:", "davs:"));
        URI dest = URI.create(nginx.httpsUrl("/se-b/davs/sub/f.bin").replaceFirst("^https:", "davs:"));
        URI destBase = URI.create(nginx.httpsUrl("/se-b").replaceFirst("^https:", "davs:"));
        CopyResult r = mover.copy(new CopyRequest(source, dest, 500_000L, adler, "both", false, 1, destBase));
        assertEquals(adler, r.checksum());
        assertEquals(-1, Files.mismatch(nginx.file("/se-a/davs/f.bin"), nginx.file("/se-b/davs/sub/f.bin")));
        assertEquals(500_000, mover.stat(dest).size());
    }

    @Test
    void anSeWhoseCaIsNotTrustedFailsForGoodWithTlsFailed() throws Exception {
        HttpMover jdkTrustOnly = mover(Optional.empty(), Optional.of(pki.clientCertificate()), Optional.of(pki.clientKey()));
        HttpMoverTest.write(nginx.file("/se-a/tls/untrusted.bin"), 1000, 13);
        MoverException e = assertThrows(MoverException.class, () -> jdkTrustOnly.stat(URI.create(nginx.httpsUrl("/se-a/tls/untrusted.bin"))));
        assertEquals(MoverException.Code.TLS_FAILED, e.code());
        assertEquals("prepare", e.phase());
        assertFalse(e.retryable(), "trying again does not make a certificate trusted");
    }

    @Test
    void anSeThatWantsAClientCertificateRefusesACopyWithout() throws Exception {
        HttpMover anonymous = mover(Optional.of(pki.caDirectory()), Optional.empty(), Optional.empty());
        HttpMoverTest.write(nginx.file("/se-a/tls/anonymous.bin"), 1000, 14);
        MoverException e = assertThrows(MoverException.class, () -> anonymous.copy(request("/se-a/tls/anonymous.bin",
                "/se-b/tls/anonymous.bin", 1000L, null, 1)));
        assertFalse(e.retryable());
        assertTrue(e.getMessage().contains("HTTP 400"), e.getMessage());
        assertFalse(Files.exists(nginx.file("/se-b/tls/anonymous.bin")));
    }

    @Test
    void aCopysOwnClientCertificateIsPresentedWhereTheMoverHasNone() throws Exception {
        StorageTls tls = TlsSockets.storageTls(Optional.of(pki.caDirectory()), Optional.empty(), Optional.empty());
        HttpMover mover = new HttpMover(Duration.ofSeconds(60), 64L << 20, tls);
        ClientCertificate user = new ClientCertificate(TlsSockets.privateKey(Files.readString(pki.clientKey()), pki.clientKey()),
                TlsSockets.certificates(Files.readString(pki.clientCertificate())));
        String adler = HttpMoverTest.write(nginx.file("/se-a/tls/own.bin"), 300_000, 15);
        CopyRequest anonymous = request("/se-a/tls/own.bin", "/se-b/tls/own/own.bin", 300_000L, adler, 1);
        CopyRequest withCertificate = new CopyRequest(anonymous.source(), anonymous.destination(), 300_000L, adler, "both", false, 1,
                anonymous.destinationBase(), false, null, new StorageCredentials(user, user));

        assertThrows(MoverException.class, () -> mover.copy(anonymous), "the mover itself has no client certificate");
        assertEquals(adler, mover.copy(withCertificate).checksum());
        assertEquals(-1, Files.mismatch(nginx.file("/se-a/tls/own.bin"), nginx.file("/se-b/tls/own/own.bin")));
        // the kept connections that presented the certificate are not lent to a copy without one
        assertThrows(MoverException.class, () -> mover.stat(anonymous));
        assertTrue(user.toString().contains("redacted"));
    }

    @Test
    void unusableSettingsAreRefusedWithTheirReason() throws Exception {
        Path empty = Files.createDirectories(dir.resolve("empty-certificates"));
        Exception noCa = assertThrows(Exception.class, () -> TlsSockets.factory(Optional.of(empty), Optional.empty(), Optional.empty()));
        assertTrue(noCa.getMessage().contains("no PEM certificate"), noCa.getMessage());
        Exception noKey = assertThrows(Exception.class,
                () -> TlsSockets.factory(Optional.empty(), Optional.of(pki.clientCertificate()), Optional.empty()));
        assertTrue(noKey.getMessage().contains("no PEM private key"), noKey.getMessage());
    }
}
