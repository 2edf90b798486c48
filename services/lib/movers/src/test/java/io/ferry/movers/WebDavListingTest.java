package io.ferry.movers;

import io.ferry.dev.TestCertificates;
import io.ferry.dev.XrootdServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
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
        ListingTree tree = new ListingTree(List.of("a.root", "sub dir/b.root", "sub dir/ü ñ/c #1.root"), 11);
        tree.writeUnder(server.file("/dav"));
        URI dir = URI.create(server.url("/dav/").replace("https://", "davs://"));

        assertEquals(tree.listed(), ListingTree.inPathOrder(listing.list(dir, null, null, p -> true, 100)));

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
