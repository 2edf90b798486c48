package io.ferry.movers.xrootd;

import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import io.ferry.dev.DirectoryTrees;
import io.ferry.dev.TestCertificates;
import io.ferry.dev.XrootdServer;
import io.ferry.dev.testca.TestTokenIssuer;
import io.ferry.movers.BearerToken;
import io.ferry.movers.ChecksumAlgorithm;
import io.ferry.movers.MoverException;
import io.ferry.movers.StorageAccess;
import io.ferry.movers.TlsSockets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A token-protected XRootD server (ztn + the SciTokens authorization plugin): Ferry's client sends the copy's bearer
 * token over TLS; a token of another issuer's key, an expired one or one for other paths is refused.
 */
class XrootdTokenTest {

    static final String ISSUER = "https://tokens.ferry.test/issuer";
    static final String AUDIENCE = "ferry-xrootd-test";

    static Path dir;
    static XrootdServer server;
    static XrootdAccess access;
    static RSAKey key;

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("ferry-xrootd-tokens");
        TestCertificates pki = TestCertificates.create(dir);
        key = new RSAKeyGenerator(2048).keyID("k1").generate();
        String jwks = new JWKSet(key.toPublicJWK()).toString(true);
        server = new XrootdServer(pki, Map.of(), XrootdServer.Options.plain().withTokens(new XrootdServer.Tokens(ISSUER, jwks, AUDIENCE)));
        access = new XrootdAccess(Duration.ofSeconds(30), TlsSockets.storageTls(Optional.of(pki.caDirectory()), Optional.empty(), Optional.empty()));
    }

    @AfterAll
    static void stop() throws Exception {
        if (access != null) {
            access.close();
        }
        if (server != null) {
            server.close();
        }
        DirectoryTrees.delete(dir);
    }

    static BearerToken token(RSAKey signing, String scope, Duration lifetime) {
        Instant now = Instant.now();
        Instant exp = now.plus(lifetime);
        Instant iat = lifetime.isNegative() ? exp.minus(Duration.ofMinutes(20)) : now;
        JWTClaimsSet claims = new JWTClaimsSet.Builder().issuer(ISSUER).subject("alice").audience(AUDIENCE).claim("wlcg.ver", "1.0")
                .claim("scope", scope).claim("wlcg.groups", List.of("/dteam")).jwtID(UUID.randomUUID().toString())
                .issueTime(Date.from(iat)).notBeforeTime(Date.from(iat)).expirationTime(Date.from(exp)).build();
        return new BearerToken(TestTokenIssuer.sign(signing, signing.getKeyID(), claims));
    }

    static URI url(String path) {
        return URI.create(server.rootUrl("root", path));
    }

    @Test
    void theRightTokenWritesAndReads() throws Exception {
        server.mkdirs("/data");
        BearerToken token = token(key, "storage.read:/data storage.modify:/data storage.create:/data", Duration.ofHours(1));
        URI u = url("/data/run1/f");
        try (StorageAccess.Upload up = access.write(u, 4, token, "transfer")) {
            up.write(ByteBuffer.wrap(new byte[] {1, 2, 3, 4}));
            up.commit();
        }
        assertEquals(4, Files.size(server.file("/data/run1/f")));
        assertEquals(4, access.stat(u, ChecksumAlgorithm.ADLER32, token, "prepare").size());
        assertEquals("4", XrootdAccessTest.drain(access.read(u, token, "transfer"))[0]);
        access.delete(u, token, "transfer");
    }

    @Test
    void aForeignExpiredOrMissingTokenIsRefused() throws Exception {
        XrootdAccessTest.write(server.file("/data/secret"), 10, 1);
        URI u = url("/data/secret");
        RSAKey other = new RSAKeyGenerator(2048).keyID("k1").generate();
        Map<String, BearerToken> refused = Map.of(
                "verify", token(other, "storage.read:/data", Duration.ofHours(1)),
                "expired", token(key, "storage.read:/data", Duration.ofMinutes(-5)),
                "permission denied", token(key, "storage.read:/elsewhere", Duration.ofHours(1)));
        for (Map.Entry<String, BearerToken> bad : refused.entrySet()) {
            MoverException e = assertThrows(MoverException.class, () -> access.stat(u, null, bad.getValue(), "prepare"));
            assertEquals(MoverException.Code.PERMISSION_DENIED, e.code(), e.getMessage());
            assertTrue(e.getMessage().contains(bad.getKey()), "the server's own reason is kept: " + e.getMessage());
        }
        MoverException none = assertThrows(MoverException.class, () -> access.stat(u, null, null, "prepare"));
        assertEquals(MoverException.Code.PERMISSION_DENIED, none.code(), none.getMessage());
        assertTrue(none.getMessage().contains("ztn"), none.getMessage());
    }

    @Test
    void aSessionServesOnlyTheTokenItLoggedInWith() throws Exception {
        XrootdAccessTest.write(server.file("/data/shared"), 10, 2);
        URI u = url("/data/shared");
        BearerToken reader = token(key, "storage.read:/data", Duration.ofHours(1));
        BearerToken other = token(key, "storage.read:/data", Duration.ofHours(1));
        long before = access.connectionsOpened();
        access.stat(u, null, reader, "prepare");
        access.stat(u, null, reader, "prepare");
        assertEquals(before + 1, access.connectionsOpened(), "the same token reuses its session");
        access.stat(u, null, other, "prepare");
        assertEquals(before + 2, access.connectionsOpened(), "another token never rides on the first one's session");
        MoverException none = assertThrows(MoverException.class, () -> access.stat(u, null, null, "prepare"));
        assertEquals(MoverException.Code.PERMISSION_DENIED, none.code());
    }

    @Test
    void aTokenThirdPartyCopyPullsWithTheTokensForwarded() throws Exception {
        String jwks = new JWKSet(key.toPublicJWK()).toString(true);
        XrootdServer.Options options = XrootdServer.Options.plain().withTpc().withTokens(new XrootdServer.Tokens(ISSUER, jwks, AUDIENCE));
        Path pki = dir.resolve("tpc-pki");
        TestCertificates certs = TestCertificates.create(pki);
        try (XrootdServer source = new XrootdServer(certs, Map.of(), options);
             XrootdServer destination = new XrootdServer(certs, Map.of(), options);
             XrootdAccess both = new XrootdAccess(Duration.ofSeconds(30), TlsSockets.storageTls(Optional.of(certs.caDirectory()), Optional.empty(), Optional.empty()))) {
            source.mkdirs("/data");
            destination.mkdirs("/data");
            String adler = XrootdAccessTest.write(source.file("/data/t1"), (5L << 20) + 3, 4);
            BearerToken token = token(key, "storage.read:/data storage.modify:/data storage.create:/data", Duration.ofHours(1));
            XrootdThirdPartyCopy tpc = new XrootdThirdPartyCopy(both, Duration.ofMinutes(1));
            XrootdThirdPartyCopy.Result r;
            try {
                r = tpc.copy(URI.create(source.rootUrl("root", "/data/t1")), URI.create(destination.rootUrl("root", "/data/t1")), false,
                        ChecksumAlgorithm.ADLER32, token, token);
            } catch (MoverException e) {
                throw new AssertionError(e.getMessage() + "\nsource:\n" + source.log() + "\ndestination:\n" + destination.log(), e);
            }
            assertEquals(adler, r.checksum());
            assertEquals(-1, Files.mismatch(source.file("/data/t1"), destination.file("/data/t1")));

            // the destination's token cannot read the source: the puller reads it with the source's token (tpc.scgi)
            BearerToken destinationOnly = token(key, "storage.modify:/data storage.create:/data storage.read:/data/t3", Duration.ofHours(1));
            BearerToken sourceOnly = token(key, "storage.read:/data/t1", Duration.ofHours(1));
            assertEquals((5L << 20) + 3, tpc.copy(URI.create(source.rootUrl("root", "/data/t1")), URI.create(destination.rootUrl("root", "/data/t3")),
                    false, ChecksumAlgorithm.ADLER32, sourceOnly, destinationOnly).size());
            assertEquals(-1, Files.mismatch(source.file("/data/t1"), destination.file("/data/t3")));
        }
    }
}
