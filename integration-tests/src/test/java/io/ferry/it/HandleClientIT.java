package io.ferry.it;

import io.ferry.dev.DevTokens;
import io.ferry.dev.FreePort;
import io.ferry.stack.LocalStack;
import io.ferry.stack.ServiceSpec;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * CNRI's own Handle client library (net.handle:handle-client 9.3.1), with its default settings (a session tracker,
 * so sessions with a Diffie-Hellman key exchange, and certified answers where asked), against the packaged
 * resolver's native protocol: the site and server key read from {@code 0.NA/<prefix>}, certified resolution over
 * UDP and TCP, create, modify, add and remove values, delete, and a write with a wrong key refused.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HandleClientIT {

    private static final String PREFIX = "20.500.4343";
    private static final String ADMIN = PREFIX + "/ADMIN";
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private LocalStack stack;
    private String resolver;
    private int nativePort;
    private String token;

    @BeforeAll
    void start() throws Exception {
        nativePort = FreePort.find();
        stack = ItStacks.start("handle-client-it", Map.of("FERRY_RESOLVER_NATIVE_PORT", Integer.toString(nativePort),
                "FERRY_RESOLVER_NATIVE_BIND", "127.0.0.1"), List.of(ServiceSpec.RESOLVER));
        resolver = stack.service(ServiceSpec.RESOLVER).url();
        token = stack.tokens().mint(DevTokens.Claims.of("it", null, "handles:admin handles:write"));
        assertEquals(200, put("POST", "/api/prefixes/" + PREFIX, "{\"admins\":[\"" + ADMIN + "\"]}"));
        assertEquals(201, put("PUT", "/api/handles/" + ADMIN + "?overwrite=false", "{\"values\":[{\"index\":300,\"type\":\"HS_SECKEY\","
                + "\"data\":{\"format\":\"string\",\"value\":\"admin-key\"},\"permissions\":\"1100\"}]}"));
    }

    @AfterAll
    void stop() throws Exception {
        if (stack != null) {
            stack.close();
        }
    }

    private int put(String method, String path, String body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(resolver + path)).header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    /** The site a client starts from: the resolver's address and port, no key yet (the prefix handle gives it). */
    private SiteInfo bootstrapSite() throws Exception {
        ServerInfo s = new ServerInfo();
        s.serverId = 1;
        s.ipAddress = new byte[16];
        System.arraycopy(InetAddress.getByName("127.0.0.1").getAddress(), 0, s.ipAddress, 12, 4);
        s.publicKey = new byte[0];
        s.interfaces = new Interface[]{new Interface(Interface.ST_ADMIN_AND_QUERY, Interface.SP_HDL_TCP, nativePort),
                new Interface(Interface.ST_QUERY, Interface.SP_HDL_UDP, nativePort)};
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

    private static <T extends AbstractRequest> T certified(T req) {
        req.certify = true;
        return req;
    }

    private static List<String> data(AbstractResponse res) throws Exception {
        return Arrays.stream(assertInstanceOf(ResolutionResponse.class, res, () -> "got " + res).getHandleValues())
                .filter(v -> !v.getTypeAsString().equals("HS_ADMIN")).map(v -> v.getIndex() + " " + v.getDataAsString()).toList();
    }

    @Test
    void cnriClientWithDefaultSettingsResolvesAndAdministers() throws Exception {
        HandleResolver r = new HandleResolver();
        r.setTcpTimeout(10_000);
        ResolutionRequest prefixSite = new ResolutionRequest(Util.encodeString("0.NA/" + PREFIX), new byte[][]{Util.encodeString("HS_SITE")}, null, null);
        AbstractResponse prefix = r.sendRequestToSite(prefixSite, bootstrapSite(), Interface.SP_HDL_UDP);
        SiteInfo site = Encoder.decodeSiteInfoRecord(assertInstanceOf(ResolutionResponse.class, prefix).getHandleValues()[0].getData(), 0);
        java.security.PublicKey serverKey = Util.getPublicKeyFromBytes(site.servers[0].publicKey, 0);

        SecretKeyAuthenticationInfo key = new SecretKeyAuthenticationInfo(Util.encodeString(ADMIN), 300, Util.encodeString("admin-key"), true);
        String h = PREFIX + "/cnri-1";
        HandleValue admin = new HandleValue(100, Util.encodeString("HS_ADMIN"), Encoder.encodeAdminRecord(new AdminRecord(Util.encodeString(ADMIN), 300,
                true, true, true, true, true, true, true, true, true, true, true, true)));
        assertEquals(AbstractMessage.RC_SUCCESS, r.sendRequestToSite(certified(new CreateHandleRequest(Util.encodeString(h),
                new HandleValue[]{new HandleValue(1, "URL", "https://data.example/1"), admin}, key)), site, Interface.SP_HDL_TCP).responseCode);
        assertEquals(AbstractMessage.RC_SUCCESS, r.sendRequestToSite(new ModifyValueRequest(Util.encodeString(h),
                new HandleValue(1, "URL", "https://data.example/1b"), key), site, Interface.SP_HDL_TCP).responseCode);
        assertEquals(AbstractMessage.RC_SUCCESS, r.sendRequestToSite(new AddValueRequest(Util.encodeString(h),
                new HandleValue(2, "EMAIL", "data@ral.example"), key), site, Interface.SP_HDL_TCP).responseCode);
        assertEquals(AbstractMessage.RC_SUCCESS, r.sendRequestToSite(new RemoveValueRequest(Util.encodeString(h), 2, key), site,
                Interface.SP_HDL_TCP).responseCode);
        for (int protocol : new int[]{Interface.SP_HDL_UDP, Interface.SP_HDL_TCP}) {
            AbstractResponse signed = r.sendRequestToSite(certified(new ResolutionRequest(Util.encodeString(h), null, null, null)), site, protocol);
            assertEquals(List.of("1 https://data.example/1b"), data(signed));
            assertTrue(signed.verifyMessage(serverKey));
        }

        HandleResolver other = new HandleResolver();
        SecretKeyAuthenticationInfo wrong = new SecretKeyAuthenticationInfo(Util.encodeString(ADMIN), 300, Util.encodeString("not-the-key"), true);
        assertEquals(AbstractMessage.RC_AUTHENTICATION_FAILED, other.sendRequestToSite(new AddValueRequest(Util.encodeString(h),
                new HandleValue(3, "URL", "https://evil.example/"), wrong), site, Interface.SP_HDL_TCP).responseCode);

        assertEquals(AbstractMessage.RC_SUCCESS, r.sendRequestToSite(new DeleteHandleRequest(Util.encodeString(h), key), site, Interface.SP_HDL_TCP).responseCode);
        assertEquals(AbstractMessage.RC_HANDLE_NOT_FOUND, r.sendRequestToSite(new ResolutionRequest(Util.encodeString(h), null, null, null), site,
                Interface.SP_HDL_UDP).responseCode);
    }
}
