package io.ferry.movers.xrootd;

import io.ferry.dev.TestCertificates;
import io.ferry.dev.XrootdServer;
import io.ferry.movers.DirectoryListing;
import io.ferry.movers.ListingTree;
import io.ferry.movers.MoverException;
import io.ferry.movers.TlsSockets;
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

/** A tree on a real XRootD server listed with kXR_dirlist: nested directories walked, names relative, the limit counted. */
class XrootdListingTest {

    @TempDir
    static Path pkiDir;
    private static XrootdServer server;
    private static XrootdAccess access;

    @BeforeAll
    static void start() throws Exception {
        TestCertificates pki = TestCertificates.create(pkiDir);
        server = new XrootdServer(pki, java.util.Map.of(), XrootdServer.Options.plain());
        access = new XrootdAccess(Duration.ofSeconds(30), TlsSockets.storageTls(Optional.of(pki.caDirectory()), Optional.empty(), Optional.empty()));
    }

    @AfterAll
    static void stop() throws Exception {
        access.close();
        server.close();
    }

    @Test
    void aTreeIsWalkedDirectoryByDirectory() throws Exception {
        ListingTree tree = new ListingTree(List.of("a.root", "sub dir/b.root", "sub dir/ü ñ/c.root"), 9);
        tree.writeUnder(server.file("/tree"));
        URI dir = URI.create(server.rootUrl("root", "/tree/"));

        assertEquals(tree.listed(), ListingTree.inPathOrder(access.list(dir, null, null, p -> true, 100)));

        DirectoryListing.Listing limited = access.list(dir, null, null, p -> !p.startsWith("a"), 1);
        assertEquals(1, limited.files().size());
        assertEquals(2, limited.matching());
        assertTrue(limited.overLimit());
    }

    @Test
    void aMissingDirectoryIsNotFound() {
        assertEquals(MoverException.Code.SOURCE_NOT_FOUND, assertThrows(MoverException.class,
                () -> access.list(URI.create(server.rootUrl("root", "/no-such-dir/")), null, null, p -> true, 10)).code());
    }
}
