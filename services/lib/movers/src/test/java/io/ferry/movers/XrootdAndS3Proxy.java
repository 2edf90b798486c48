package io.ferry.movers;

import io.ferry.dev.DirectoryTrees;
import io.ferry.dev.S3Server;
import io.ferry.dev.TestCertificates;
import io.ferry.dev.XrootdServer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The two ends of the S3 ↔ WebDAV copy tests: an XRootD server, whose HTTP port does third-party copies, over https
 * with a test CA's certificate, and an s3proxy over plain HTTP with the bucket "bkt".
 */
final class XrootdAndS3Proxy implements AutoCloseable {

    /** The s3proxy's account. */
    static final S3Keys KEYS = new S3Keys(S3Server.IDENTITY, S3Server.CREDENTIAL, null, false);

    final XrootdServer xrootd;
    final S3Server s3;
    /** Trusts the test CA, so the XRootD server's certificate. */
    final StorageTls tls;
    private final Path pkiDir;

    private XrootdAndS3Proxy(XrootdServer xrootd, S3Server s3, StorageTls tls, Path pkiDir) {
        this.xrootd = xrootd;
        this.s3 = s3;
        this.tls = tls;
        this.pkiDir = pkiDir;
    }

    /** Both servers running; what had started is stopped again when the other fails to. */
    static XrootdAndS3Proxy start() throws Exception {
        Path pkiDir = Files.createTempDirectory("ferry-xrootd-s3-pki");
        XrootdServer xrootd = null;
        try {
            TestCertificates pki = TestCertificates.create(pkiDir);
            StorageTls tls = TlsSockets.storageTls(Optional.of(pki.caDirectory()), Optional.empty(), Optional.empty());
            xrootd = new XrootdServer(pki);
            return new XrootdAndS3Proxy(xrootd, new S3Server("bkt"), tls, pkiDir);
        } catch (Exception e) {
            if (xrootd != null) {
                xrootd.close();
            }
            DirectoryTrees.delete(pkiDir);
            throw e;
        }
    }

    @Override
    public void close() throws Exception {
        try (xrootd; s3) {
            // only to close them: each server stops even when the other fails to
        } finally {
            DirectoryTrees.delete(pkiDir);
        }
    }
}
