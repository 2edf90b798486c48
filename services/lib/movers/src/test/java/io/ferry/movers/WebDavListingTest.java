package io.ferry.movers;

import io.ferry.dev.TestCertificates;
import io.ferry.dev.XrootdServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A WebDAV tree listed with PROPFIND Depth 1 against a real WebDAV server: XRootD's HTTP plugin (the test nginx has
 * no PROPFIND), over https with its CA trusted.
 */
class WebDavListingTest {

    @TempDir
    static Path pkiDir;
    private static XrootdServer server;
    private static DirectoryListing listing;

    @BeforeAll
    static void start() throws Exception {
        TestCertificates pki = TestCertificates.create(pkiDir);
        server = new XrootdServer(pki, java.util.Map.of(), XrootdServer.Options.plain());
        HttpMover mover = new HttpMover(Duration.ofSeconds(30), 64L << 20,
                TlsSockets.storageTls(Optional.of(pki.caDirectory()), Optional.empty(), Optional.empty()));
        listing = mover.webDavListing();
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    @Test
    void aCollectionTreeIsWalkedOneDepthAtATimeWithNamesDecoded() throws Exception {
        for (String path : List.of("/dav/a.root", "/dav/sub dir/b.root", "/dav/sub dir/ü ñ/c #1.root")) {
            Files.createDirectories(server.file(path).getParent());
            Files.write(server.file(path), new byte[11]);
        }
        Files.createDirectories(server.file("/dav/empty"));
        URI dir = URI.create(server.url("/dav/").replace("https://", "davs://"));

        DirectoryListing.Listing all = listing.list(dir, null, null, p -> true, 100);
        assertEquals(List.of(new DirectoryListing.ListedFile("a.root", 11), new DirectoryListing.ListedFile("sub dir/b.root", 11),
                        new DirectoryListing.ListedFile("sub dir/ü ñ/c #1.root", 11)),
                all.files().stream().sorted(Comparator.comparing(DirectoryListing.ListedFile::path)).toList());

        DirectoryListing.Listing one = listing.list(dir, null, null, p -> p.endsWith(".root"), 1);
        assertEquals(3, one.matching());
        assertTrue(one.overLimit());
    }

    @Test
    void aMissingCollectionIsNotFound() {
        assertEquals(MoverException.Code.SOURCE_NOT_FOUND, assertThrows(MoverException.class,
                () -> listing.list(URI.create(server.url("/no-such-dir/")), null, null, p -> true, 10)).code());
    }
}
