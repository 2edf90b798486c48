package io.ferry.resolver.nativeprotocol;

import io.ferry.resolver.nativeprotocol.wire.WireWriter;
import io.ferry.resolver.nativeprotocol.wire.ValueTranslation;
import io.ferry.resolver.authentication.SecretKeyChallenge;
import io.ferry.resolver.authentication.PublicKeyChallenge;
import io.ferry.resolver.nativeprotocol.wire.ProtocolException;
import io.ferry.resolver.nativeprotocol.wire.NativeValue;
import io.ferry.resolver.nativeprotocol.wire.MessageHeader;
import io.ferry.resolver.nativeprotocol.wire.KeyEncoding;
import io.ferry.resolver.nativeprotocol.wire.Envelope;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;
import io.ferry.resolver.model.HandleValue;
import net.handle.hdllib.AbstractMessage;
import net.handle.hdllib.AbstractRequest;
import net.handle.hdllib.AdminRecord;
import net.handle.hdllib.ChallengeResponse;
import net.handle.hdllib.Common;
import net.handle.hdllib.CreateHandleRequest;
import net.handle.hdllib.CreateHandleResponse;
import net.handle.hdllib.Encoder;
import net.handle.hdllib.ErrorResponse;
import net.handle.hdllib.Interface;
import net.handle.hdllib.MessageEnvelope;
import net.handle.hdllib.RemoveValueRequest;
import net.handle.hdllib.ResolutionRequest;
import net.handle.hdllib.ResolutionResponse;
import net.handle.hdllib.SecretKeyAuthenticationInfo;
import net.handle.hdllib.SiteInfo;
import net.handle.hdllib.Util;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The codec against the bytes CNRI's own library (net.handle:handle-client, hdllib's Encoder) writes and reads. */
class NativeCodecTest {

    /** A request as CNRI's client sends it: envelope, then header, body and an empty credential. */
    static byte[] sent(AbstractRequest req) throws Exception {
        return sent(req, 99);
    }

    /** As {@link #sent(AbstractRequest)}, under session id {@code sessionId} (a request signed for a session keeps its credential). */
    static byte[] sent(AbstractRequest req, int sessionId) throws Exception {
        req.majorProtocolVersion = 2;
        req.minorProtocolVersion = 11;
        req.requestId = 4711;
        req.sessionId = sessionId;
        byte[] message = req.getEncodedMessage();
        MessageEnvelope env = new MessageEnvelope();
        env.protocolMajorVersion = 2;
        env.protocolMinorVersion = 11;
        env.requestId = 4711;
        env.sessionId = sessionId;
        env.messageLength = message.length;
        byte[] out = new byte[Common.MESSAGE_ENVELOPE_SIZE + message.length];
        Encoder.encodeEnvelope(env, out);
        System.arraycopy(message, 0, out, Common.MESSAGE_ENVELOPE_SIZE, message.length);
        return out;
    }

    static NativeRequest received(AbstractRequest req) throws Exception {
        byte[] bytes = sent(req);
        return NativeRequest.decode(Envelope.decode(bytes, 0), bytes, Envelope.SIZE);
    }

    /** Our answer as CNRI's client decodes it, under the envelope we would send. */
    static AbstractMessage decoded(NativeRequest req, byte[] message, int session) throws Exception {
        WireWriter out = new WireWriter(64);
        req.envelope().reply(session, message.length).encode(out);
        byte[] env = out.toByteArray();
        MessageEnvelope envelope = new MessageEnvelope();
        Encoder.decodeEnvelope(env, envelope);
        assertEquals(4711, envelope.requestId);
        assertEquals(message.length, envelope.messageLength);
        return Encoder.decodeMessage(message, 0, envelope);
    }

    @Test
    void envelopeAndResolutionRequestDecodeAsCnriWritesThem() throws Exception {
        ResolutionRequest req = new ResolutionRequest(Util.encodeString("10.5072/abc"),
                new byte[][]{Util.encodeString("URL"), Util.encodeString("EMAIL")}, new int[]{1, 7}, null);
        req.authoritative = true;
        NativeRequest decoded = received(req);
        assertEquals(2, decoded.envelope().major());
        assertEquals(11, decoded.envelope().minor());
        assertEquals(99, decoded.envelope().sessionId());
        assertEquals(4711, decoded.envelope().requestId());
        assertEquals(MessageHeader.OC_RESOLUTION, decoded.opCode());
        assertTrue(decoded.header().has(MessageHeader.FLAG_AUTHORITATIVE));
        assertTrue(decoded.header().has(MessageHeader.FLAG_PUBLIC_ONLY));
        NativeRequestHandler.ResolutionQuery query = NativeRequestHandler.ResolutionQuery.decode(decoded);
        assertEquals("10.5072/abc", new String(query.handle(), StandardCharsets.UTF_8));
        assertEquals(List.of(1, 7), query.indices());
        assertEquals(List.of("URL", "EMAIL"), query.types());
        assertArrayEquals(req.getEncodedMessageBody(), decoded.headerAndBody());
    }

    @Test
    void resolutionResponseDecodesInCnriLibraryWithItsRequestDigest() throws Exception {
        ResolutionRequest req = new ResolutionRequest(Util.encodeString("10.5072/abc"), null, null, null);
        req.returnRequestDigest = true;
        NativeRequest decoded = received(req);
        var admin = JsonNodeFactory.instance.objectNode().put("handle", "0.NA/10.5072").put("index", 200).put("permissions", "111111111111");
        List<NativeValue> values = List.of(
                ValueTranslation.toNative(new HandleValue(1, "URL", new HandleValue.Data("string", TextNode.valueOf("https://a.example/x")),
                        IntNode.valueOf(3600), "2026-01-02T03:04:05Z", "1110")),
                ValueTranslation.toNative(new HandleValue(2, "BIN", new HandleValue.Data("hex", TextNode.valueOf("00ff10")),
                        TextNode.valueOf("2030-01-01T00:00:00Z"), null, "1100")),
                ValueTranslation.toNative(new HandleValue(100, "HS_ADMIN", new HandleValue.Data("admin", admin), null, null, "1110")));
        AbstractMessage msg = decoded(decoded, Responses.resolution(decoded, Util.encodeString("10.5072/abc"), values), 0);
        ResolutionResponse res = assertInstanceOf(ResolutionResponse.class, msg);
        assertEquals(AbstractMessage.RC_SUCCESS, res.responseCode);
        assertArrayEquals(Util.doDigest(res.rdHashType, req.getEncodedMessageBody()), res.requestDigest);
        net.handle.hdllib.HandleValue[] got = res.getHandleValues();
        assertEquals(3, got.length);
        assertEquals("URL", got[0].getTypeAsString());
        assertEquals("https://a.example/x", got[0].getDataAsString());
        assertEquals(3600, got[0].getTTL());
        assertEquals(java.time.Instant.parse("2026-01-02T03:04:05Z").getEpochSecond(), got[0].getTimestamp());
        assertEquals("rwr-", got[0].getPermissionString());
        assertArrayEquals(new byte[]{0, (byte) 0xff, 0x10}, got[1].getData());
        assertEquals(1, got[1].getTTLType());
        assertEquals(java.time.Instant.parse("2030-01-01T00:00:00Z").getEpochSecond(), got[1].getTTL());
        assertEquals("rw--", got[1].getPermissionString());
        AdminRecord record = Encoder.decodeAdminRecord(got[2].getData(), 0);
        assertEquals("0.NA/10.5072", Util.decodeString(record.adminId));
        assertEquals(200, record.adminIdIndex);
        for (boolean p : record.perms) {
            assertTrue(p);
        }
    }

    @Test
    void valuesWrittenByCnriComeBackByteForByte() throws Exception {
        // CNRI's order: add handle, delete handle, add/delete derived prefix, modify, remove, add value, modify, remove,
        // add admin, read value, list handles - AdminPermissions' order, written from the right as CNRI's JSON writes it
        AdminRecord admin = new AdminRecord(Util.encodeString("10.5072/ADMIN"), 300, true, false, false, false, true, true, false, true, false, false, false, true);
        byte[] adminBytes = Encoder.encodeAdminRecord(admin);
        byte[] binary = {0, 1, 2, (byte) 0xfe};
        CreateHandleRequest req = new CreateHandleRequest(Util.encodeString("10.5072/new"), new net.handle.hdllib.HandleValue[]{
                new net.handle.hdllib.HandleValue(1, "URL", "https://b.example/"),
                new net.handle.hdllib.HandleValue(2, Util.encodeString("KEY"), binary),
                new net.handle.hdllib.HandleValue(100, Util.encodeString("HS_ADMIN"), adminBytes)}, null);
        NativeRequest decoded = received(req);
        NativeRequestHandler.AdminOperation op = NativeRequestHandler.adminOperation(decoded);
        assertEquals("10.5072/new", op.handle());
        List<HandleValue> values = op.values().stream().map(ValueTranslation::fromNative).toList();
        assertEquals(new HandleValue.Data("string", TextNode.valueOf("https://b.example/")), values.get(0).data());
        assertEquals("base64", values.get(1).data().format());
        assertEquals("admin", values.get(2).data().format());
        assertEquals("10.5072/ADMIN", values.get(2).data().value().path("handle").asText());
        assertEquals(300, values.get(2).data().value().path("index").asInt());
        assertEquals("100010110001", values.get(2).data().value().path("permissions").asText());
        assertEquals("1110", values.get(0).permissions());
        assertEquals(IntNode.valueOf(86400), values.get(0).ttl());
        for (int i = 0; i < 3; i++) {
            assertArrayEquals(req.values[i].getData(), ValueTranslation.toNative(values.get(i)).data(), "value " + i);
        }
    }

    @Test
    void removeRequestsCarryTheirIndices() throws Exception {
        NativeRequest decoded = received(new RemoveValueRequest(Util.encodeString("10.5072/x"), new int[]{2, 5}, null));
        assertEquals(MessageHeader.OC_REMOVE_VALUE, decoded.opCode());
        assertEquals(List.of(2, 5), NativeRequestHandler.adminOperation(decoded).indices());
    }

    @Test
    void truncatedMessagesAreRefused() throws Exception {
        byte[] bytes = sent(new ResolutionRequest(Util.encodeString("10.5072/abc"), null, null, null));
        byte[] cut = java.util.Arrays.copyOf(bytes, bytes.length - 8);
        assertThrows(ProtocolException.class, () -> NativeRequest.decode(Envelope.decode(cut, 0), cut, Envelope.SIZE));
        bytes[Envelope.SIZE + MessageHeader.SIZE + 3] = 0x7f;
        NativeRequest bad = NativeRequest.decode(Envelope.decode(bytes, 0), bytes, Envelope.SIZE);
        assertThrows(ProtocolException.class, () -> NativeRequestHandler.ResolutionQuery.decode(bad));
    }

    @Test
    void errorsDecodeWithTheirCodeAndMessage() throws Exception {
        NativeRequest decoded = received(new ResolutionRequest(Util.encodeString("10.5072/none"), null, null, null));
        ErrorResponse err = assertInstanceOf(ErrorResponse.class, decoded(decoded, Responses.error(decoded, 100, "Handle Not Found"), 0));
        assertEquals(AbstractMessage.RC_HANDLE_NOT_FOUND, err.responseCode);
        assertEquals("Handle Not Found", Util.decodeString(err.message));
    }

    /** A create request CNRI encoded, our challenge to it as CNRI decodes it, and what the answer must sign. */
    record Challenged(CreateHandleRequest req, byte[] nonce, byte[] digest, ChallengeResponse challenge) {
    }

    static Challenged challenged(int session) throws Exception {
        CreateHandleRequest req = new CreateHandleRequest(Util.encodeString("10.5072/new"),
                new net.handle.hdllib.HandleValue[]{new net.handle.hdllib.HandleValue(1, "URL", "https://b.example/")}, null);
        NativeRequest decoded = received(req);
        byte[] nonce = new byte[16];
        new java.security.SecureRandom().nextBytes(nonce);
        byte[] digest = Responses.digest(Responses.digestType(decoded.envelope()), decoded.headerAndBody());
        ChallengeResponse challenge = assertInstanceOf(ChallengeResponse.class, decoded(decoded, Responses.challenge(decoded, nonce), session));
        return new Challenged(req, nonce, digest, challenge);
    }

    @Test
    void secretKeyChallengeIsAnsweredByCnriAndVerifiedHere() throws Exception {
        Challenged c = challenged(1234);
        CreateHandleRequest req = c.req();
        byte[] nonce = c.nonce();
        byte[] digest = c.digest();
        ChallengeResponse challenge = c.challenge();
        assertEquals(1234, challenge.sessionId);
        assertArrayEquals(nonce, challenge.nonce);
        byte[] key = Util.encodeString("s3cret");
        byte[] answer = new SecretKeyAuthenticationInfo(Util.encodeString("10.5072/ADMIN"), 300, key).authenticate(challenge, req);
        assertEquals(SecretKeyChallenge.PBKDF2_HMAC_SHA1, answer[0]);
        assertTrue(SecretKeyChallenge.verify(key, nonce, digest, answer));
        assertFalse(SecretKeyChallenge.verify(Util.encodeString("wrong"), nonce, digest, answer));
        assertFalse(SecretKeyChallenge.verify(key, new byte[16], digest, answer));
        // a client hashing the key (CNRI's hash=true) against a key stored plain, and against the hashed form stored
        byte[] hashedAnswer = new SecretKeyAuthenticationInfo(Util.encodeString("10.5072/ADMIN"), 300, key, true).authenticate(challenge, req);
        assertTrue(SecretKeyChallenge.verify(key, nonce, digest, hashedAnswer));
        assertTrue(SecretKeyChallenge.verify(Encoder.encodeSecretKey(key, true), nonce, digest, hashedAnswer));
    }

    @Test
    void publicKeyChallengeIsSignedByCnriAndVerifiedHere() throws Exception {
        Challenged c = challenged(77);
        java.security.KeyPairGenerator rsa = java.security.KeyPairGenerator.getInstance("RSA");
        rsa.initialize(2048);
        java.security.KeyPair pair = rsa.generateKeyPair();
        byte[] hsPubkey = Util.getBytesFromPublicKey(pair.getPublic());
        byte[] answer = new net.handle.hdllib.PublicKeyAuthenticationInfo(Util.encodeString("10.5072/ADMIN"), 300, pair.getPrivate())
                .authenticate(c.challenge(), c.req());
        assertTrue(PublicKeyChallenge.verify(hsPubkey, c.nonce(), c.digest(), answer));
        assertFalse(PublicKeyChallenge.verify(Util.getBytesFromPublicKey(rsa.generateKeyPair().getPublic()), c.nonce(), c.digest(), answer));
        assertFalse(PublicKeyChallenge.verify(hsPubkey, new byte[16], c.digest(), answer));
    }

    @Test
    void mintedHandlesComeBackInTheCreateResponse() throws Exception {
        CreateHandleRequest req = new CreateHandleRequest(Util.encodeString("10.5072/"), new net.handle.hdllib.HandleValue[0], null, true);
        NativeRequest decoded = received(req);
        assertTrue(decoded.header().has(MessageHeader.FLAG_MINT));
        CreateHandleResponse res = assertInstanceOf(CreateHandleResponse.class,
                decoded(decoded, Responses.created(decoded, Util.encodeString("10.5072/xyz")), 0));
        assertEquals("10.5072/xyz", Util.decodeString(res.handle));
    }

    @Test
    void siteRecordDecodesAsCnriSiteInfo() throws Exception {
        java.security.KeyPairGenerator rsa = java.security.KeyPairGenerator.getInstance("RSA");
        rsa.initialize(2048);
        java.security.PublicKey key = rsa.generateKeyPair().getPublic();
        SiteInfo site = Encoder.decodeSiteInfoRecord(SiteRecord.encode(InetAddress.getByName("127.0.0.1"), 4001, 4002, 1,
                KeyEncoding.encode(key)), 0);
        assertTrue(site.isPrimary);
        // the server's key, as CNRI's client reads it to verify certified answers
        assertEquals(key, Util.getPublicKeyFromBytes(site.servers[0].publicKey, 0));
        assertEquals(1, site.servers.length);
        assertEquals(InetAddress.getByName("127.0.0.1"), site.servers[0].getInetAddress());
        Interface tcp = site.servers[0].interfaces[0];
        Interface udp = site.servers[0].interfaces[1];
        assertEquals(Interface.SP_HDL_TCP, tcp.protocol);
        assertEquals(Interface.ST_ADMIN_AND_QUERY, tcp.type);
        assertEquals(4001, tcp.port);
        assertEquals(Interface.SP_HDL_UDP, udp.protocol);
        assertEquals(Interface.ST_QUERY, udp.type);
        assertEquals(4002, udp.port);
    }
}
