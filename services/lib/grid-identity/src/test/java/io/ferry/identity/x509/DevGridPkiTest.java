package io.ferry.identity.x509;

import io.ferry.dev.testca.GridCredential;
import io.ferry.dev.testca.DevGridPki;
import io.ferry.identity.mapping.AccessRules;
import io.ferry.identity.model.GridCaller;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class DevGridPkiTest {

    @TempDir
    Path dir;

    @Test
    void aProxyFileFromASecondRunVerifiesAgainstTheFilesOfTheFirst() throws Exception {
        DevGridPki.loadOrCreate(dir);
        Path proxy = DevGridPki.loadOrCreate(dir).writeProxy("atlas", List.of("/atlas/Role=production"), Duration.ofHours(12),
                dir.resolve("x509up_u1000"));

        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(proxy)));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("ca/ca.key"))));
        GridCredential read = GridCredential.load(proxy, proxy);
        assertEquals(2, read.chain().length, "proxy then user certificate");
        TrustSettings trust = new TrustSettings(dir.resolve("certificates"), dir.resolve("vomsdir"), TrustSettings.CrlMode.REQUIRE,
                TrustSettings.NamespaceMode.REQUIRE, Duration.ofHours(1), Set.of(), Duration.ZERO);
        try (CertificateVerifier verifier = new CertificateVerifier(trust, AccessRules.none())) {
            GridCaller caller = verifier.verify(read.chain());
            assertEquals(DevGridPki.USER_DN, caller.dn());
            assertEquals(List.of("atlas"), caller.vos());
            assertEquals(List.of("/atlas/Role=production/Capability=NULL", "/atlas/Role=NULL/Capability=NULL"), caller.fqans());
        }
    }

    @Test
    void anFqanOfAnotherVoIsRefused() throws Exception {
        DevGridPki pki = DevGridPki.loadOrCreate(dir);
        assertThrows(IllegalArgumentException.class,
                () -> pki.writeProxy("atlas", List.of("/cms/Role=production"), Duration.ofHours(1), dir.resolve("p")));
    }
}
