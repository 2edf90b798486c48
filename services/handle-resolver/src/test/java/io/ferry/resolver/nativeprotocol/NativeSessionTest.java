package io.ferry.resolver.nativeprotocol;

import io.ferry.resolver.nativeprotocol.wire.Envelope;
import net.handle.hdllib.AbstractMessage;
import net.handle.hdllib.ClientSideSessionInfo;
import net.handle.hdllib.Common;
import net.handle.hdllib.Encoder;
import net.handle.hdllib.ResolutionRequest;
import net.handle.hdllib.SessionSetupInfo;
import net.handle.hdllib.Util;
import net.handle.security.HdlSecurityProvider;
import org.junit.jupiter.api.Test;

import javax.crypto.interfaces.DHPrivateKey;
import javax.crypto.interfaces.DHPublicKey;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Sessions and signatures against what CNRI's client library derives, signs and verifies. */
class NativeSessionTest {

    /** A session whose key both sides agreed as CNRI's client does it with its default (Diffie-Hellman) setup. */
    record Agreed(NativeSession server, ClientSideSessionInfo client) {
    }

    static Agreed agree() throws Exception {
        SessionSetupInfo options = new SessionSetupInfo();
        options.initDHKeys();
        SessionKeys.Agreement agreement = SessionKeys.diffieHellman(options.publicExchangeKey);
        // the client's side, as HandleResolver.setupSessionWithServer reads the setup answer
        int alg = Encoder.readInt(agreement.answerData(), 0);
        DHPublicKey serverPublic = (DHPublicKey) Util.getPublicKeyFromBytes(agreement.answerData(), Encoder.INT_SIZE);
        byte[] clientKey = Util.substring(HdlSecurityProvider.getInstance().getKeyFromDH(serverPublic,
                (DHPrivateKey) options.privateExchangeKey, alg), Encoder.INT_SIZE);
        assertEquals(HdlSecurityProvider.ENCRYPT_ALG_AES, alg);
        assertArrayEquals(clientKey, agreement.sessionKey());
        NativeSession server = new NativeSession(77, agreement.sessionKey(), 2, 11, 60_000_000_000L, null);
        return new Agreed(server, new ClientSideSessionInfo(77, clientKey, null, -1, alg, null, 2, 11));
    }

    @Test
    void diffieHellmanAgreesCnriClientsKeyAndEncryptsBothWays() throws Exception {
        Agreed a = agree();
        byte[] message = "header, body and credential".getBytes(StandardCharsets.UTF_8);
        assertArrayEquals(message, SessionKeys.decrypt(a.server(), a.client().encryptBuffer(message, 0, message.length)));
        byte[] answer = SessionKeys.encrypt(a.server(), message);
        assertArrayEquals(message, a.client().decryptBuffer(answer, 0, answer.length));
    }

    /** A resolution request in session 77, MAC-signed by CNRI's client, as the server receives it. */
    static NativeRequest signedInSession(int counter, byte[] key) throws Exception {
        ResolutionRequest req = new ResolutionRequest(Util.encodeString("10.5072/abc"), null, null, null);
        req.majorProtocolVersion = 2;
        req.minorProtocolVersion = 11;
        req.sessionId = 77;
        req.requestId = 4711;
        req.sessionCounter = counter;
        req.signMessage(key);
        byte[] out = NativeCodecTest.sent(req, 77);
        return NativeRequest.decode(Envelope.decode(out, 0), out, Envelope.SIZE);
    }

    @Test
    void sessionMacOfCnriClientsRequestIsVerifiedAndAnotherKeysIsNot() throws Exception {
        Agreed a = agree();
        NativeRequest req = signedInSession(5, a.client().getSessionKey());
        MessageSignatures.Credential credential = MessageSignatures.Credential.read(req.credential());
        assertEquals(5, credential.counter());
        assertTrue(MessageSignatures.verifyMac(a.server(), req, credential));
        byte[] otherKey = a.client().getSessionKey().clone();
        otherKey[0] ^= 1;
        NativeRequest forged = signedInSession(5, otherKey);
        assertFalse(MessageSignatures.verifyMac(a.server(), forged, MessageSignatures.Credential.read(forged.credential())));
        assertFalse(MessageSignatures.verifyMac(a.server(), req, null));
    }

    @Test
    void answersSignedHereVerifyInCnriClientByMacAndByServerKey() throws Exception {
        Agreed a = agree();
        NativeRequest req = signedInSession(1, a.client().getSessionKey());
        byte[] message = Responses.error(req, Responses.RC_HANDLE_NOT_FOUND, "Handle Not Found");
        Envelope env = req.envelope().reply(77, 0);
        byte[] macAnswer = Responses.withCredential(message, MessageSignatures.mac(a.server(), env, a.server().nextAnswerCounter(),
                Responses.headerAndBody(message)));
        AbstractMessage byMac = NativeCodecTest.decoded(req, macAnswer, 77);
        assertTrue(byMac.signatureIsMac());
        assertTrue(byMac.verifyMessage(a.client().getSessionKey()));
        assertEquals(1, byMac.sessionCounter);

        KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
        rsa.initialize(2048);
        KeyPair server = rsa.generateKeyPair();
        byte[] signedAnswer = Responses.withCredential(message, MessageSignatures.sign(server.getPrivate(), env, 0, Responses.headerAndBody(message)));
        AbstractMessage bySignature = NativeCodecTest.decoded(req, signedAnswer, 77);
        assertFalse(bySignature.signatureIsMac());
        assertTrue(bySignature.verifyMessage(server.getPublic()));
        assertFalse(bySignature.verifyMessage(rsa.generateKeyPair().getPublic()));
        // a changed byte of the answer breaks the signature
        signedAnswer[30] ^= 1;
        assertFalse(NativeCodecTest.decoded(req, signedAnswer, 77).verifyMessage(server.getPublic()));
    }

    @Test
    void sessionCountersAreAcceptedOnce() throws Exception {
        NativeSession s = agree().server();
        assertTrue(s.accept(1));
        assertFalse(s.accept(1));
        assertTrue(s.accept(3));
        assertTrue(s.accept(2));
        assertFalse(s.accept(0));
        assertTrue(s.accept(5000));
        assertFalse(s.accept(3000), "older than the remembered window");
        assertTrue(s.accept(4990));
        assertFalse(s.accept(4990));
    }

    @Test
    void sessionsExpireWhenIdleAndEndWhenClosed() {
        NativeSessions sessions = new NativeSessions();
        int id = sessions.freeId(i -> false);
        assertTrue(sessions.add(new NativeSession(id, new byte[32], 2, 11, 1, null)));
        assertNull(sessions.find(id), "idle longer than its 1 ns timeout");
        int live = sessions.freeId(i -> false);
        assertTrue(sessions.add(new NativeSession(live, new byte[32], 2, 11, 60_000_000_000L, null)));
        assertEquals(live, sessions.find(live).id());
        sessions.close(live);
        assertNull(sessions.find(live));
    }

    @Test
    void sessionBindsOnlyTheIdentityItWasSetUpFor() {
        NativeSession.Identity admin = new NativeSession.Identity("20.500.1/ADMIN", 300);
        NativeSession s = new NativeSession(1, new byte[32], 2, 11, 60_000_000_000L, admin);
        s.authenticate(new NativeSession.Identity("20.500.1/OTHER", 300));
        assertNull(s.authenticated());
        s.authenticate(admin);
        assertEquals(admin, s.authenticated());
    }

    @Test
    void serverKeyReadsPkcs8PemAndCnriPrivkeyBin(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
        rsa.initialize(2048);
        KeyPair pair = rsa.generateKeyPair();
        Path pem = dir.resolve("server.pem");
        ServerKey.write(pem, pair.getPrivate());
        assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(pem)));
        KeyPair read = ServerKey.read(Files.readAllBytes(pem));
        assertEquals(pair.getPrivate(), read.getPrivate());
        assertEquals(pair.getPublic(), read.getPublic());
        // hdl-keygen's privkey.bin, stored without a passphrase
        byte[] privkeyBin = Util.encrypt(Util.getBytesFromPrivateKey(pair.getPrivate()), null, Common.ENCRYPT_NONE);
        KeyPair fromBin = ServerKey.read(privkeyBin);
        assertEquals(pair.getPublic(), fromBin.getPublic());
        assertTrue(Arrays.equals(pair.getPrivate().getEncoded(), fromBin.getPrivate().getEncoded()));
    }
}
