package io.ferry.resolver;

import io.ferry.dev.FerryTestResource;
import io.ferry.resolver.nativeprotocol.NativeProtocolServer;
import io.ferry.resolver.nativeprotocol.ServerKey;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import net.handle.hdllib.AbstractMessage;
import net.handle.hdllib.AbstractRequest;
import net.handle.hdllib.AbstractResponse;
import net.handle.hdllib.AddValueRequest;
import net.handle.hdllib.AdminRecord;
import net.handle.hdllib.CreateHandleRequest;
import net.handle.hdllib.DeleteHandleRequest;
import net.handle.hdllib.Encoder;
import net.handle.hdllib.HandleResolver;
import net.handle.hdllib.HandleValue;
import net.handle.hdllib.Interface;
import net.handle.hdllib.ModifyValueRequest;
import net.handle.hdllib.RemoveValueRequest;
import net.handle.hdllib.ResolutionRequest;
import net.handle.hdllib.ResolutionResponse;
import net.handle.hdllib.SecretKeyAuthenticationInfo;
import net.handle.hdllib.ServerInfo;
import net.handle.hdllib.SiteInfo;
import net.handle.hdllib.Util;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.Arrays;
import java.util.List;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The native Handle protocol, driven by CNRI's own client library (net.handle:handle-client 9.3.1) with its default
 * settings (sessions): the site read from {@code 0.NA/<prefix>} with the server key, resolution over UDP and TCP,
 * certified answers, and administration in sessions with a secret key held in an HS_SECKEY value (or a private key
 * whose HS_PUBKEY is stored), on the store the REST API serves.
 */
@QuarkusTest
@WithTestResource(FerryTestResource.class)
@WithTestResource(SchedulerStandIn.class)
class NativeProtocolTest {

    @Inject
    NativeProtocolServer server;

    @Inject
    ServerKey serverKey;

    static String values(String json) {
        return "{\"values\":[" + json + "]}";
    }

    /** A site as a client is first configured with: this server, TCP for everything, UDP for queries. */
    SiteInfo bootstrapSite() throws Exception {
        ServerInfo s = new ServerInfo();
        s.serverId = 1;
        s.ipAddress = new byte[16];
        System.arraycopy(InetAddress.getByName("127.0.0.1").getAddress(), 0, s.ipAddress, 12, 4);
        s.publicKey = new byte[0];
        s.interfaces = new Interface[]{new Interface(Interface.ST_ADMIN_AND_QUERY, Interface.SP_HDL_TCP, server.tcpPort()),
                new Interface(Interface.ST_QUERY, Interface.SP_HDL_UDP, server.udpPort())};
        SiteInfo site = new SiteInfo();
        site.majorProtocolVersion = 2;
        site.minorProtocolVersion = 11;
        site.isPrimary = true;
        site.hashOption = SiteInfo.HASH_TYPE_BY_ALL;
        site.hashFilter = new byte[0];
        site.attributes = new net.handle.hdllib.Attribute[0];
        site.servers = new ServerInfo[]{s};
        return site;
    }

    static HandleResolver resolver() {
        HandleResolver r = new HandleResolver();
        r.setTcpTimeout(10_000);
        r.setUdpRetryScheme(new int[]{2000, 4000});
        // CNRI's default session tracker: administration opens a session first (Diffie-Hellman, the setup signed
        // with the server key from HS_SITE), then MACs every request in it.
        return r;
    }

    /** A secret key that counts the challenges it answers: one per session, since a proven session is not challenged again. */
    static final class CountingKey extends SecretKeyAuthenticationInfo {
        int challenges;

        CountingKey(String handle, int index, String key) throws Exception {
            super(Util.encodeString(handle), index, Util.encodeString(key), true);
        }

        @Override
        public byte[] authenticate(net.handle.hdllib.ChallengeResponse challenge, AbstractRequest request) throws net.handle.hdllib.HandleException {
            challenges++;
            return super.authenticate(challenge, request);
        }
    }

    /** {@code req}, asking for a certified answer (which CNRI's client then verifies, else throws). */
    static <T extends AbstractRequest> T certified(T req) {
        req.certify = true;
        return req;
    }

    static AbstractResponse send(HandleResolver r, AbstractRequest req, SiteInfo site, int protocol) throws Exception {
        return r.sendRequestToSite(req, site, protocol);
    }

    static ResolutionResponse resolve(HandleResolver r, SiteInfo site, int protocol, String handle, String[] types, int[] indices) throws Exception {
        byte[][] t = types == null ? null : Arrays.stream(types).map(Util::encodeString).toArray(byte[][]::new);
        AbstractResponse res = send(r, new ResolutionRequest(Util.encodeString(handle), t, indices, null), site, protocol);
        return assertInstanceOf(ResolutionResponse.class, res, () -> "got " + res);
    }

    /** The values other than HS_ADMIN (REST adds one for the token that wrote the handle) as "index type data". */
    static List<String> data(ResolutionResponse res) throws Exception {
        return Arrays.stream(res.getHandleValues()).filter(v -> !v.getTypeAsString().equals("HS_ADMIN")).map(v -> v.getIndex() + " " + v.getTypeAsString() + " " + v.getDataAsString()).toList();
    }

    /** {@code ferry_native_requests_total} of one transport, operation and response code on /q/metrics. */
    static double answered(String transport, String operation, String responseCode) {
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        return metrics.lines().filter(l -> l.startsWith("ferry_native_requests_total{") && l.contains("transport=\"" + transport + "\"")
                        && l.contains("operation=\"" + operation + "\"") && l.contains("response_code=\"" + responseCode + "\""))
                .mapToDouble(l -> Double.parseDouble(l.replaceFirst("^[^ {]+(\\{.*?\\})? ", "").split(" ")[0])).sum();
    }

    @Test
    void everyAnswerIsCountedByTransportOperationAndResponseCode() throws Exception {
        String prefix = "20.500." + (System.nanoTime() % 1_000_000_000L);
        given().auth().oauth2(HandleApiTest.admin()).contentType(ContentType.JSON).body("{\"admins\":[\"" + prefix + "/ADMIN\"]}")
                .post("/api/prefixes/" + prefix).then().statusCode(200);
        String h = prefix + "/counted";
        given().auth().oauth2(HandleApiTest.admin()).contentType(ContentType.JSON)
                .body(values("{\"index\":1,\"type\":\"URL\",\"data\":{\"format\":\"string\",\"value\":\"https://data.example/c\"}}"))
                .put("/api/handles/" + h).then().statusCode(200);
        HandleResolver r = resolver();
        SiteInfo site = bootstrapSite();
        for (String transport : List.of("udp", "tcp")) {
            int protocol = transport.equals("udp") ? Interface.SP_HDL_UDP : Interface.SP_HDL_TCP;
            double found = answered(transport, "resolution", "success");
            double missing = answered(transport, "resolution", "handle_not_found");
            resolve(r, site, protocol, h, null, null);
            resolve(r, site, protocol, h, new String[]{"URL"}, null);
            assertEquals(AbstractMessage.RC_HANDLE_NOT_FOUND, send(r, new ResolutionRequest(Util.encodeString(prefix + "/none"), null, null, null),
                    site, protocol).responseCode);
            assertEquals(found + 2, answered(transport, "resolution", "success"), transport);
            assertEquals(missing + 1, answered(transport, "resolution", "handle_not_found"), transport);
        }
    }

    @Test
    void cnriClientResolvesAndAdministersThroughTheNativeProtocol() throws Exception {
        String prefix = "20.500." + (System.nanoTime() % 1_000_000_000L);
        String adminHandle = prefix + "/ADMIN";
        // The prefix, homed with an admin named as Handle.net names one (index 300 of its admin handle) ...
        given().auth().oauth2(HandleApiTest.admin()).contentType(ContentType.JSON).body("{\"admins\":[\"" + adminHandle + "\"]}")
                .post("/api/prefixes/" + prefix).then().statusCode(200);
        // ... whose secret key is in that handle's HS_SECKEY (admin read only, as Handle.net keeps keys)
        given().auth().oauth2(HandleApiTest.admin()).contentType(ContentType.JSON)
                .body(values("{\"index\":300,\"type\":\"HS_SECKEY\",\"data\":{\"format\":\"string\",\"value\":\"s3cret-key\"},\"permissions\":\"1100\"}"))
                .put("/api/handles/" + adminHandle).then().statusCode(200);
        String h = prefix + "/native-1";
        given().auth().oauth2(HandleApiTest.admin()).contentType(ContentType.JSON)
                .body(values("{\"index\":1,\"type\":\"URL\",\"data\":{\"format\":\"string\",\"value\":\"https://data.example/1\"},\"ttl\":3600},"
                        + "{\"index\":2,\"type\":\"EMAIL\",\"data\":{\"format\":\"string\",\"value\":\"data@ral.example\"}},"
                        + "{\"index\":3,\"type\":\"SECRET\",\"data\":{\"format\":\"string\",\"value\":\"admins only\"},\"permissions\":\"1100\"}"))
                .put("/api/handles/" + h).then().statusCode(200);

        HandleResolver r = resolver();
        // The site a client reads from 0.NA/<prefix> is this server's: the rest goes through it.
        ResolutionResponse prefixHandle = resolve(r, bootstrapSite(), Interface.SP_HDL_UDP, "0.NA/" + prefix, new String[]{"HS_SITE"}, null);
        HandleValue siteValue = prefixHandle.getHandleValues()[0];
        assertEquals("HS_SITE", siteValue.getTypeAsString());
        SiteInfo site = Encoder.decodeSiteInfoRecord(siteValue.getData(), 0);
        assertEquals(server.tcpPort(), site.servers[0].interfaces[0].port);
        assertEquals(server.udpPort(), site.servers[0].interfaces[1].port);
        // ... and carries the server key that certified answers are signed with
        java.security.PublicKey siteKey = Util.getPublicKeyFromBytes(site.servers[0].publicKey, 0);
        assertEquals(serverKey.publicKey(), siteKey);
        java.security.KeyPairGenerator otherKeys = java.security.KeyPairGenerator.getInstance("RSA");
        otherKeys.initialize(2048);
        java.security.PublicKey otherKey = otherKeys.generateKeyPair().getPublic();

        for (int protocol : new int[]{Interface.SP_HDL_UDP, Interface.SP_HDL_TCP}) {
            // all public values (the admin-only one is left out), by type, by index
            assertEquals(List.of("1 URL https://data.example/1", "2 EMAIL data@ral.example"), data(resolve(r, site, protocol, h, null, null)));
            assertEquals(List.of("1 URL https://data.example/1"), data(resolve(r, site, protocol, h, new String[]{"URL"}, null)));
            assertEquals(List.of("2 EMAIL data@ral.example"), data(resolve(r, site, protocol, h, null, new int[]{2})));
            assertEquals(3600, resolve(r, site, protocol, h, null, new int[]{1}).getHandleValues()[0].getTTL());
            AbstractResponse missing = send(r, new ResolutionRequest(Util.encodeString(prefix + "/none"), null, null, null), site, protocol);
            assertEquals(AbstractMessage.RC_HANDLE_NOT_FOUND, missing.responseCode);
            AbstractResponse noValues = send(r, new ResolutionRequest(Util.encodeString(h), new byte[][]{Util.encodeString("DESC")}, null, null), site, protocol);
            assertEquals(AbstractMessage.RC_VALUES_NOT_FOUND, noValues.responseCode);
            AbstractResponse elsewhere = send(r, new ResolutionRequest(Util.encodeString("21.9999/x"), null, null, null), site, protocol);
            assertEquals(AbstractMessage.RC_SERVER_NOT_RESP, elsewhere.responseCode);
            // a certified resolution (cached or not): CNRI's client verified it against HS_SITE's key, or it would have thrown
            for (String[] types : new String[][]{null, {"URL"}}) {
                byte[][] t = types == null ? null : new byte[][]{Util.encodeString(types[0])};
                ResolutionResponse signed = assertInstanceOf(ResolutionResponse.class,
                        send(r, certified(new ResolutionRequest(Util.encodeString(h), t, null, null)), site, protocol));
                assertEquals("1 URL https://data.example/1", data(signed).get(0));
                assertTrue(signed.verifyMessage(siteKey));
                assertFalse(signed.verifyMessage(otherKey));
            }
        }

        // Keys written through REST are stored hashed (CNRI's hex SHA-1): a client then hashes its key, as hdl-admintool's
        // "hash" box does, and signs with what is stored.
        CountingKey key = new CountingKey(adminHandle, 300, "s3cret-key");
        String created = prefix + "/native-2";
        AdminRecord admin = new AdminRecord(Util.encodeString(adminHandle), 300, true, true, false, false, true, true, true, true, true, true, true, true);
        HandleValue adminValue = new HandleValue(100, Util.encodeString("HS_ADMIN"), Encoder.encodeAdminRecord(admin));
        byte[] binary = {0, 1, 2, (byte) 0xfe, (byte) 0xff};
        // create: the challenge answered with the key, then the handle is there for REST too, bytes intact
        AbstractResponse create = send(r, certified(new CreateHandleRequest(Util.encodeString(created), new HandleValue[]{
                new HandleValue(1, "URL", "https://data.example/2"), new HandleValue(2, Util.encodeString("BLOB"), binary), adminValue}, key)), site, Interface.SP_HDL_TCP);
        assertEquals(AbstractMessage.RC_SUCCESS, create.responseCode, () -> "create: " + create);
        // the create ran in a session CNRI's client set up, and the session now acts as the key's identity
        assertEquals(1, key.challenges);
        org.junit.jupiter.api.Assertions.assertNotNull(r.getSessionTracker().getSession(site.servers[0], key));
        given().get("/api/handles/" + created).then().statusCode(200).body("values.find { it.index == 1 }.data.value", equalTo("https://data.example/2"))
                .body("values.find { it.index == 100 }.data.value.handle", equalTo(adminHandle));
        assertArrayEquals(binary, resolve(r, site, Interface.SP_HDL_UDP, created, null, new int[]{2}).getHandleValues()[0].getData());
        AbstractResponse again = send(r, new CreateHandleRequest(Util.encodeString(created), new HandleValue[]{adminValue}, key), site, Interface.SP_HDL_TCP);
        assertEquals(AbstractMessage.RC_HANDLE_ALREADY_EXISTS, again.responseCode);

        // a minted suffix, and its creator as the admin of a handle created without one (named by handle and index)
        AbstractResponse minted = send(r, new CreateHandleRequest(Util.encodeString(prefix + "/"),
                new HandleValue[]{new HandleValue(1, "URL", "https://data.example/minted")}, key, true), site, Interface.SP_HDL_TCP);
        String mintedHandle = Util.decodeString(assertInstanceOf(net.handle.hdllib.CreateHandleResponse.class, minted, () -> "mint: " + minted).handle);
        assertTrue(mintedHandle.startsWith(prefix + "/") && mintedHandle.length() > prefix.length() + 1, mintedHandle);
        given().get("/api/handles/" + mintedHandle).then().statusCode(200)
                .body("values.find { it.type == 'HS_ADMIN' }.data.value.handle", equalTo(adminHandle))
                .body("values.find { it.type == 'HS_ADMIN' }.data.value.index", equalTo(300));

        // modify, add, remove values; an authoritative query sees each at once
        assertEquals(AbstractMessage.RC_SUCCESS, send(r, certified(new ModifyValueRequest(Util.encodeString(created),
                new HandleValue(1, "URL", "https://data.example/2b"), key)), site, Interface.SP_HDL_TCP).responseCode);
        assertEquals(AbstractMessage.RC_SUCCESS, send(r, new AddValueRequest(Util.encodeString(created),
                new HandleValue(3, "EMAIL", "two@ral.example"), key), site, Interface.SP_HDL_TCP).responseCode);
        assertEquals(AbstractMessage.RC_VALUE_ALREADY_EXISTS, send(r, new AddValueRequest(Util.encodeString(created),
                new HandleValue(3, "EMAIL", "again@ral.example"), key), site, Interface.SP_HDL_TCP).responseCode);
        assertEquals(AbstractMessage.RC_VALUES_NOT_FOUND, send(r, new ModifyValueRequest(Util.encodeString(created),
                new HandleValue(9, "URL", "https://data.example/9"), key), site, Interface.SP_HDL_TCP).responseCode);
        assertEquals(AbstractMessage.RC_SUCCESS, send(r, new RemoveValueRequest(Util.encodeString(created), 2, key), site, Interface.SP_HDL_TCP).responseCode);
        // a value only admins read: CNRI's client encrypts the request under the session key, and the answer comes back encrypted
        HandleValue hidden = new HandleValue(6, "NOTE", "admins only");
        hidden.setAnyoneCanRead(false);
        assertEquals(AbstractMessage.RC_SUCCESS, send(r, certified(new AddValueRequest(Util.encodeString(created), hidden, key)), site,
                Interface.SP_HDL_TCP).responseCode);
        given().auth().oauth2(HandleApiTest.admin()).get("/api/handles/" + created + "?index=6").then().statusCode(200)
                .body("values[0].data.value", equalTo("admins only"));
        assertEquals(AbstractMessage.RC_SUCCESS, send(r, new RemoveValueRequest(Util.encodeString(created), 6, key), site, Interface.SP_HDL_TCP).responseCode);
        // every write since the first ran in the proven session, unchallenged
        assertEquals(1, key.challenges);
        // OC_SESSION_TERMINATE ends the session; a write the client still sends in it is 500 (as after a restart),
        // upon which CNRI's client sets up a new session, is challenged once more, and the write succeeds
        net.handle.hdllib.ClientSideSessionInfo live = r.getSessionTracker().getSession(site.servers[0], key);
        net.handle.hdllib.GenericRequest end = new net.handle.hdllib.GenericRequest(net.handle.hdllib.Common.BLANK_HANDLE,
                AbstractMessage.OC_SESSION_TERMINATE, null);
        end.sessionInfo = live;
        assertEquals(AbstractMessage.RC_SUCCESS, send(r, end, site, Interface.SP_HDL_TCP).responseCode);
        assertEquals(AbstractMessage.RC_SUCCESS, send(r, new AddValueRequest(Util.encodeString(created),
                new HandleValue(7, "EMAIL", "after@ral.example"), key), site, Interface.SP_HDL_TCP).responseCode);
        assertEquals(2, key.challenges);
        org.junit.jupiter.api.Assertions.assertNotEquals(live.sessionId, r.getSessionTracker().getSession(site.servers[0], key).sessionId);
        assertEquals(AbstractMessage.RC_SUCCESS, send(r, new RemoveValueRequest(Util.encodeString(created), 7, key), site, Interface.SP_HDL_TCP).responseCode);
        assertEquals(2, key.challenges);
        ResolutionRequest authoritative = new ResolutionRequest(Util.encodeString(created), null, null, null);
        authoritative.authoritative = true;
        assertEquals(List.of("1 URL https://data.example/2b", "3 EMAIL two@ral.example"),
                data((ResolutionResponse) send(r, authoritative, site, Interface.SP_HDL_UDP)));
        given().get("/api/handles/" + created + "?index=1").then().statusCode(200).body("values[0].data.value", equalTo("https://data.example/2b"));

        // a wrong key is refused (authentication failed), and nothing is written
        SecretKeyAuthenticationInfo wrong = new SecretKeyAuthenticationInfo(Util.encodeString(adminHandle), 300, Util.encodeString("not-the-key"), true);
        AbstractResponse refused = send(r, certified(new AddValueRequest(Util.encodeString(created), new HandleValue(4, "URL", "https://evil.example/"), wrong)),
                site, Interface.SP_HDL_TCP);
        assertEquals(AbstractMessage.RC_AUTHENTICATION_FAILED, refused.responseCode);
        AbstractResponse refusedDelete = send(r, new DeleteHandleRequest(Util.encodeString(created), wrong), site, Interface.SP_HDL_TCP);
        assertEquals(AbstractMessage.RC_AUTHENTICATION_FAILED, refusedDelete.responseCode);
        given().get("/api/handles/" + created + "?index=4").then().statusCode(200).body("responseCode", equalTo(200));
        // the right key of someone neither the handle nor its prefix names as admin: refused by the HS_ADMIN checks
        given().auth().oauth2(HandleApiTest.admin()).contentType(ContentType.JSON)
                .body(values("{\"index\":300,\"type\":\"HS_SECKEY\",\"data\":{\"format\":\"string\",\"value\":\"other-key\"},\"permissions\":\"1100\"}"))
                .put("/api/handles/" + prefix + "/OTHER").then().statusCode(200);
        SecretKeyAuthenticationInfo other = new SecretKeyAuthenticationInfo(Util.encodeString(prefix + "/OTHER"), 300, Util.encodeString("other-key"), true);
        AbstractResponse notAdmin = send(r, new DeleteHandleRequest(Util.encodeString(h), other), site, Interface.SP_HDL_TCP);
        assertEquals(AbstractMessage.RC_INVALID_ADMIN, notAdmin.responseCode);
        given().get("/api/handles/" + h).then().statusCode(200);
        // the prefix's admin may delete any handle under it, including one REST wrote
        assertEquals(AbstractMessage.RC_SUCCESS, send(r, new DeleteHandleRequest(Util.encodeString(h), key), site, Interface.SP_HDL_TCP).responseCode);

        // public-key authentication: an admin the handle itself names, whose HS_PUBKEY holds CNRI's key encoding
        java.security.KeyPairGenerator rsa = java.security.KeyPairGenerator.getInstance("RSA");
        rsa.initialize(2048);
        java.security.KeyPair pair = rsa.generateKeyPair();
        given().auth().oauth2(HandleApiTest.admin()).contentType(ContentType.JSON)
                .body(values("{\"index\":300,\"type\":\"HS_PUBKEY\",\"data\":{\"format\":\"base64\",\"value\":\""
                        + java.util.Base64.getEncoder().encodeToString(Util.getBytesFromPublicKey(pair.getPublic())) + "\"}}"))
                .put("/api/handles/" + prefix + "/PUBADMIN").then().statusCode(200);
        AdminRecord pubAdmin = new AdminRecord(Util.encodeString(prefix + "/PUBADMIN"), 300, false, false, false, false, false, false, true, false, false, false, true, false);
        assertEquals(AbstractMessage.RC_SUCCESS, send(r, new AddValueRequest(Util.encodeString(created),
                new HandleValue(101, Util.encodeString("HS_ADMIN"), Encoder.encodeAdminRecord(pubAdmin)), key), site, Interface.SP_HDL_TCP).responseCode);
        net.handle.hdllib.PublicKeyAuthenticationInfo signer = new net.handle.hdllib.PublicKeyAuthenticationInfo(
                Util.encodeString(prefix + "/PUBADMIN"), 300, pair.getPrivate());
        assertEquals(AbstractMessage.RC_SUCCESS, send(r, new AddValueRequest(Util.encodeString(created),
                new HandleValue(5, "EMAIL", "signed@ral.example"), signer), site, Interface.SP_HDL_TCP).responseCode);
        assertEquals(List.of("5 EMAIL signed@ral.example"), data(resolve(r, site, Interface.SP_HDL_TCP, created, null, new int[]{5})));

        // delete
        assertEquals(AbstractMessage.RC_SUCCESS, send(r, new DeleteHandleRequest(Util.encodeString(created), key), site, Interface.SP_HDL_TCP).responseCode);
        assertEquals(AbstractMessage.RC_HANDLE_NOT_FOUND, send(r, new ResolutionRequest(Util.encodeString(created), null, null, null), site,
                Interface.SP_HDL_UDP).responseCode);
        given().get("/api/handles/" + created).then().statusCode(404);
    }
}
