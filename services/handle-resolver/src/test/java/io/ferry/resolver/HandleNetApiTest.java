package io.ferry.resolver;

import io.ferry.dev.FerryTestResource;
import io.ferry.dev.testca.GridCredential;
import io.ferry.resolver.authentication.SecretKeys;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import net.handle.hdllib.Common;
import net.handle.hdllib.Util;
import net.handle.util.X509HSCertificateGenerator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Handle.net's own ways in, as CNRI's 9.x server answers them: secret keys over HTTP Basic, HS_ADMIN naming
 * {@code index:handle} identities directly or through HS_VLIST groups, CNRI's value shapes and formats, its query
 * parameters and its codes.
 */
@QuarkusTest
@WithTestResource(FerryTestResource.class)
@WithTestResource(SchedulerStandIn.class)
// Global, as before: every test of this module runs on the one HTTPS-enabled application.
@WithTestResource(value = ResolverHttps.class, scope = TestResourceScope.GLOBAL)
class HandleNetApiTest {

    @TestHTTPResource(value = "/", tls = true)
    URI https;

    static final String PREFIX = HandleApiTest.PREFIX;

    /** pyhandle's Basic header: the user name percent-encoded, the key as it is. */
    static RequestSpecification basic(String user, String key) {
        String pair = URLEncoder.encode(user, StandardCharsets.UTF_8) + ":" + key;
        return given().header("Authorization", "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8)));
    }

    static RequestSpecification admin() {
        return given().auth().oauth2(HandleApiTest.admin());
    }

    static String seckeyUser(String key) {
        return "{\"values\":[{\"index\":300,\"type\":\"HS_SECKEY\",\"data\":{\"format\":\"string\",\"value\":\"" + key + "\"},\"permissions\":\"1100\"},"
                + "{\"index\":100,\"type\":\"HS_ADMIN\",\"data\":{\"format\":\"admin\",\"value\":{\"handle\":\"0.NA/" + PREFIX + "\",\"index\":200,\"permissions\":\"011111110011\"}}}]}";
    }

    String user;
    String outsider;

    /** USER-n holds a key and is in the prefix's admin group (200:0.NA/prefix, an HS_VLIST); OUT-n holds a key only. */
    @BeforeEach
    void adminGroup() {
        admin().contentType(ContentType.JSON).body("{}").post("/api/prefixes/" + PREFIX).then().statusCode(200);
        long n = System.nanoTime();
        user = PREFIX + "/USER-" + n;
        outsider = PREFIX + "/OUT-" + n;
        admin().contentType(ContentType.JSON).body(seckeyUser("s3cret")).put("/api/handles/" + user).then().statusCode(200);
        admin().contentType(ContentType.JSON).body(seckeyUser("0th3r")).put("/api/handles/" + outsider).then().statusCode(200);
        // the group lists a nested group (index 201) that lists the user, so membership is followed two levels deep
        admin().contentType(ContentType.JSON).body("{\"values\":["
                        + "{\"index\":200,\"type\":\"HS_VLIST\",\"data\":{\"format\":\"vlist\",\"value\":[{\"handle\":\"0.NA/" + PREFIX + "\",\"index\":201}]}},"
                        + "{\"index\":201,\"type\":\"HS_VLIST\",\"data\":{\"format\":\"vlist\",\"value\":[{\"handle\":\"" + user + "\",\"index\":300}]}},"
                        + "{\"index\":150,\"type\":\"HS_ADMIN\",\"data\":{\"format\":\"admin\",\"value\":{\"handle\":\"0.NA/" + PREFIX + "\",\"index\":\"200\",\"permissions\":\"011111110011\"}}}]}")
                .put("/api/handles/0.NA/" + PREFIX + "?index=various").then().statusCode(200);
    }

    @Test
    void secretKeysAreStoredHashedAndOpenBasicAuthentication() {
        admin().get("/api/handles/" + user + "?index=300").then().statusCode(200)
                .body("values[0].data.value", equalTo(SecretKeys.hash("s3cret".getBytes(StandardCharsets.UTF_8))));
        given().get("/api/handles/" + user).then().statusCode(200).body("values.type", not(hasItem("HS_SECKEY")));
        // a key written without permissions is readable by admins only
        String keyed = PREFIX + "/keyed-" + System.nanoTime();
        admin().contentType(ContentType.JSON).body("{\"values\":[{\"index\":300,\"type\":\"HS_SECKEY\",\"data\":\"k\"}]}")
                .put("/api/handles/" + keyed).then().statusCode(200);
        given().get("/api/handles/" + keyed).then().statusCode(200).body("values.type", not(hasItem("HS_SECKEY")));
        admin().get("/api/handles/" + keyed + "?index=300").then().body("values[0].permissions", equalTo("1100"));
        String h = PREFIX + "/basic-" + System.nanoTime();
        String body = "{\"values\":[{\"index\":1,\"type\":\"URL\",\"data\":\"https://a.example/x\"},"
                + "{\"index\":100,\"type\":\"HS_ADMIN\",\"data\":{\"format\":\"admin\",\"value\":{\"handle\":\"0.NA/" + PREFIX + "\",\"index\":\"200\",\"permissions\":\"011111110011\"}}}]}";
        // a wrong key: 401 as CNRI's filter answers, nothing stored
        basic("300:" + user, "wrong").contentType(ContentType.JSON).body(body).put("/api/handles/" + h + "?overwrite=false")
                .then().statusCode(401).body("responseCode", equalTo(401)).header("WWW-Authenticate", containsString("Basic"));
        basic("301:" + user, "s3cret").contentType(ContentType.JSON).body(body).put("/api/handles/" + h).then().statusCode(401);
        basic("300:" + PREFIX + "/nobody", "s3cret").contentType(ContentType.JSON).body(body).put("/api/handles/" + h).then().statusCode(401);
        // a right key outside the admin group: authenticated, not permitted
        basic("300:" + outsider, "0th3r").contentType(ContentType.JSON).body(body).put("/api/handles/" + h)
                .then().statusCode(403).body("responseCode", equalTo(400));
        given().get("/api/handles/" + h).then().statusCode(404);
        // the group member creates, modifies and removes; data may be a bare string
        basic("300:" + user, "s3cret").contentType(ContentType.JSON).body(body).put("/api/handles/" + h + "?overwrite=false")
                .then().statusCode(201).body("responseCode", equalTo(1)).body("handle", equalTo(h));
        given().get("/api/handles/" + h + "?index=1").then().body("values[0].data.format", equalTo("string"))
                .body("values[0].data.value", equalTo("https://a.example/x"));
        basic("300:" + user, "s3cret").contentType(ContentType.JSON)
                .body("{\"values\":[{\"index\":1,\"type\":\"URL\",\"data\":\"https://b.example/y\"}]}")
                .put("/api/handles/" + h + "?index=1&overwrite=true").then().statusCode(200).body("responseCode", equalTo(1));
        given().get("/api/handles/" + h + "?index=1").then().body("values[0].data.value", equalTo("https://b.example/y"));
        // removing a value that is not there: 200 -> 400, and nothing removed
        basic("300:" + user, "s3cret").delete("/api/handles/" + h + "?index=1&index=7").then().statusCode(400).body("responseCode", equalTo(200));
        given().get("/api/handles/" + h + "?index=1").then().body("values.size()", equalTo(1));
        // without index: the handle's keys are all tried; the hash itself is the key CNRI's hashing clients use
        basic(user, "s3cret").delete("/api/handles/" + h + "?index=1").then().statusCode(200);
        basic("300:" + user, SecretKeys.hash("s3cret".getBytes(StandardCharsets.UTF_8))).delete("/api/handles/" + h).then().statusCode(200);
        given().get("/api/handles/" + h).then().statusCode(404);
        // a token caller is still matched by its subject; a bad Basic header on a read is refused
        basic("300:" + user, "wrong").get("/api/handles/" + user).then().statusCode(401);
    }

    @Test
    void aTokenWhoseSubjectReadsLikeAHandleIdentityIsNotThatIdentity() {
        String h = PREFIX + "/sub-" + System.nanoTime();
        String body = "{\"values\":[{\"index\":1,\"type\":\"URL\",\"data\":\"https://a.example/x\"}]}";
        // USER-n is in the prefix's admin group by its key; a token naming "300:USER-n" as its subject proves no key
        given().auth().oauth2(HandleApiTest.user("300:" + user)).contentType(ContentType.JSON).body(body)
                .put("/api/handles/" + h + "?overwrite=false").then().statusCode(403).body("responseCode", equalTo(400));
        given().get("/api/handles/" + h).then().statusCode(404);
        basic("300:" + user, "s3cret").contentType(ContentType.JSON).body(body).put("/api/handles/" + h + "?overwrite=false")
                .then().statusCode(201);
    }

    @Test
    void groupCyclesEndAndGrantOnlyTheirMembers() {
        long n = System.nanoTime();
        String group = PREFIX + "/GROUP-" + n;
        String target = PREFIX + "/target-" + n;
        // group 1 lists itself and group 2, group 2 lists group 1: a cycle with no member yet
        admin().contentType(ContentType.JSON).body("{\"values\":["
                + "{\"index\":1,\"type\":\"HS_VLIST\",\"data\":{\"format\":\"vlist\",\"value\":[{\"handle\":\"" + group + "\",\"index\":1},{\"handle\":\"" + group + "\",\"index\":2}]}},"
                + "{\"index\":2,\"type\":\"HS_VLIST\",\"data\":{\"format\":\"vlist\",\"value\":[{\"handle\":\"" + group + "\",\"index\":1}]}}]}")
                .put("/api/handles/" + group).then().statusCode(200);
        admin().contentType(ContentType.JSON).body("{\"values\":[{\"index\":1,\"type\":\"URL\",\"data\":\"https://a.example/\"},"
                + "{\"index\":100,\"type\":\"HS_ADMIN\",\"data\":{\"format\":\"admin\",\"value\":{\"handle\":\"" + group + "\",\"index\":1,\"permissions\":\"*\"}}}]}")
                .put("/api/handles/" + target).then().statusCode(200);
        String extra = "{\"values\":[{\"index\":5,\"type\":\"EMAIL\",\"data\":\"a@b.example\"}]}";
        basic("300:" + outsider, "0th3r").contentType(ContentType.JSON).body(extra).put("/api/handles/" + target + "?index=5")
                .then().statusCode(403).body("responseCode", equalTo(400));
        // the outsider joins group 2, which group 1 (named by the HS_ADMIN) lists
        admin().contentType(ContentType.JSON).body("{\"values\":[{\"index\":2,\"type\":\"HS_VLIST\",\"data\":{\"format\":\"vlist\",\"value\":["
                + "{\"handle\":\"" + group + "\",\"index\":1},{\"handle\":\"" + outsider + "\",\"index\":300}]}}]}")
                .put("/api/handles/" + group + "?index=2").then().statusCode(200);
        basic("300:" + outsider, "0th3r").contentType(ContentType.JSON).body(extra).put("/api/handles/" + target + "?index=5")
                .then().statusCode(200);
        // "*" was stored as all twelve permissions
        admin().get("/api/handles/" + target + "?index=100").then().body("values[0].data.value.permissions", equalTo("111111111111"));
    }

    @Test
    void everyFormatRoundTrips() {
        String h = PREFIX + "/formats-" + System.nanoTime();
        List<Map<String, Object>> values = List.of(
                value(1, "URL", "string", "https://a.example/ü?q=1&r=%20"),
                value(2, "CHECKSUM", "hex", "0A1b2C3d"),
                value(3, "BLOB", "base64", "AAEC/f7/"),
                value(100, "HS_ADMIN", "admin", Map.of("handle", "0.NA/" + PREFIX, "index", 200, "permissions", "011111110011")),
                value(200, "HS_VLIST", "vlist", List.of(Map.of("handle", user, "index", 300))),
                value(4, "HS_SITE", "site", Map.of("version", 1, "protocolVersion", "2.10", "serialNumber", 3, "primarySite", true, "multiPrimary", false,
                        "attributes", List.of(Map.of("name", "desc", "value", "Ferry")),
                        "servers", List.of(Map.of("serverId", 1, "address", "127.0.0.1",
                                "interfaces", List.of(Map.of("query", true, "admin", true, "protocol", "TCP", "port", 2641)))))),
                value(5, "HS_PUBKEY", "key", Map.of("kty", "RSA", "n", "sXchDaQebHnPiGvyDOAT4saGEUetSyo9MKLOoWFsueri23bOdgWp4Dy1Wl", "e", "AQAB")));
        admin().contentType(ContentType.JSON).body(Map.of("values", values)).put("/api/handles/" + h).then().statusCode(200);
        JsonPath got = admin().get("/api/handles/" + h).then().statusCode(200).extract().jsonPath();
        for (Map<String, Object> v : values) {
            assertEquals(v.get("data"), got.get("values.find { it.index == " + v.get("index") + " }.data"), "value " + v.get("index"));
        }
    }

    static Map<String, Object> value(int index, String type, String format, Object value) {
        return Map.of("index", index, "type", type, "data", Map.of("format", format, "value", value));
    }

    @Test
    void cnriParametersShapeTheAnswer() {
        String h = PREFIX + "/params-" + System.nanoTime();
        admin().contentType(ContentType.JSON).body("{\"values\":[{\"index\":1,\"type\":\"URL\",\"data\":\"https://a.example/\"},"
                + "{\"index\":2,\"type\":\"SECRET\",\"data\":\"hidden\",\"permissions\":\"1100\"}]}").put("/api/handles/" + h).then().statusCode(200);
        // the two values and the HS_ADMIN the creator is given
        admin().get("/api/handles/" + h).then().body("values.size()", equalTo(3));
        admin().get("/api/handles/" + h + "?publicOnly=true").then().body("values.type", not(hasItem("SECRET"))).body("values.size()", equalTo(2));
        admin().get("/api/handles/" + h + "?publicOnly=false&auth=true").then().body("values.size()", equalTo(3));
        given().get("/api/handles/" + h + "?auth").then().statusCode(200).body("values.size()", equalTo(2));
        given().get("/api/handles/" + h + "?pretty").then().statusCode(200).contentType(ContentType.JSON)
                .body(containsString("\n  \"responseCode\" : 1"));
        given().get("/api/handles/" + h + "?callback=show").then().statusCode(200).contentType("application/javascript")
                .body(startsWith("show({\"responseCode\":1")).body(endsWith(");"));
        given().get("/api/handles/" + h + "?callback=x-1</script>").then().body(startsWith("x_1__script_({"));
        given().get("/api/handles/" + PREFIX + "/absent-" + System.nanoTime() + "?callback=cb").then().statusCode(404)
                .body(startsWith("cb({\"responseCode\":100"));
        given().get("/api/handles/" + h + "?index=one").then().statusCode(400).body("responseCode", equalTo(4));
        // index=various adds or replaces every value of the body
        admin().contentType(ContentType.JSON).body("{\"values\":[{\"index\":1,\"type\":\"URL\",\"data\":\"https://c.example/\"},"
                + "{\"index\":3,\"type\":\"EMAIL\",\"data\":\"a@b.example\"}]}").put("/api/handles/" + h + "?index=various").then().statusCode(200);
        admin().get("/api/handles/" + h).then().body("values.size()", equalTo(4)).body("values[0].data.value", equalTo("https://c.example/"));
        // one value alone is a body too; a body naming another handle is refused
        admin().contentType(ContentType.JSON).body("{\"index\":4,\"type\":\"EMAIL\",\"data\":\"b@b.example\"}")
                .put("/api/handles/" + h + "?index=4").then().statusCode(200);
        admin().contentType(ContentType.JSON).body("{\"handle\":\"" + PREFIX + "/other\",\"values\":[{\"index\":5,\"type\":\"EMAIL\",\"data\":\"c@b.example\"}]}")
                .put("/api/handles/" + h + "?index=5").then().statusCode(400).body("responseCode", equalTo(4));
        admin().get("/api/handles/" + h).then().body("values.size()", equalTo(5));
    }

    @Test
    void listingsCountPageOrListEverything() {
        String p = "10.77" + (System.nanoTime() % 100000);
        admin().contentType(ContentType.JSON).body("{}").post("/api/prefixes/" + p).then().statusCode(200);
        for (int i = 0; i < 3; i++) {
            admin().contentType(ContentType.JSON).body("{\"values\":[{\"index\":1,\"type\":\"URL\",\"data\":\"https://a.example/\"}]}")
                    .put("/api/handles/" + p + "/h" + i).then().statusCode(200);
        }
        admin().get("/api/handles?prefix=" + p).then().statusCode(200).body("prefix", equalTo(p)).body("totalCount", equalTo("3"))
                .body("handles.size()", equalTo(3)).body("page", nullValue()).body("pageSize", nullValue());
        admin().get("/api/handles?prefix=" + p + "&page=0&pageSize=0").then().body("totalCount", equalTo("3"))
                .body("handles.size()", equalTo(0)).body("pageSize", equalTo(0));
        admin().get("/api/handles?prefix=" + p + "&page=1&pageSize=2").then().body("handles", equalTo(List.of(p + "/h2"))).body("page", equalTo(1));
        admin().get("/api/handles?prefix=0.NA/" + p + "&pageSize=1").then().body("prefix", equalTo("0.NA/" + p)).body("handles.size()", equalTo(3));
        given().get("/api/handles?prefix=" + p).then().statusCode(401).body("responseCode", equalTo(402));
        given().get("/api/handles?prefix=11.99999").then().statusCode(401);
        admin().get("/api/handles?prefix=11.99999").then().statusCode(400).body("responseCode", equalTo(301));
    }

    /** A session opened by POST /api/sessions: its id and server nonce. */
    record OpenSession(String id, byte[] nonce) {
    }

    static OpenSession openSession() {
        JsonPath opened = given().post("/api/sessions").then().statusCode(201)
                .header("Location", endsWith("/api/sessions/this")).extract().jsonPath();
        return new OpenSession(opened.getString("sessionId"), Base64.getDecoder().decode(opened.getString("nonce")));
    }

    static RequestSpecification handleAuth(String fields) {
        return given().header("Authorization", "Handle " + fields);
    }

    /** The header fields answering a session's nonce with CNRI's MAC ({@code Util.doMac}) keyed by {@code key}. */
    static String secretKeyAnswer(OpenSession s, String id, byte[] key, byte[] cnonce) throws Exception {
        byte[] mac = Util.doMac(Common.HASH_CODE_HMAC_SHA256, Util.concat(s.nonce(), cnonce), key);
        return "sessionId=\"" + s.id() + "\", id=\"" + id + "\", type=\"HS_SECKEY\", alg=\"HMAC-SHA256\", cnonce=\""
                + Base64.getEncoder().encodeToString(cnonce) + "\", signature=\"" + Base64.getEncoder().encodeToString(mac) + "\"";
    }

    /** A new handle holding {@code key} in CNRI's encoding as its HS_PUBKEY at {@code index}. */
    static String publicKeyHolder(String name, int index, PublicKey key) throws Exception {
        String holder = PREFIX + "/" + name + "-" + System.nanoTime();
        admin().contentType(ContentType.JSON).body("{\"values\":[{\"index\":" + index + ",\"type\":\"HS_PUBKEY\",\"data\":{\"format\":\"hex\",\"value\":\""
                + HexFormat.of().formatHex(Util.getBytesFromPublicKey(key)) + "\"}}]}")
                .put("/api/handles/" + holder).then().statusCode(200);
        return holder;
    }

    /** A new handle with a URL at index 1, whose HS_ADMIN names {@code index:admin}. */
    static String administeredBy(String name, String admin, int index) {
        String h = PREFIX + "/" + name + "-" + System.nanoTime();
        admin().contentType(ContentType.JSON).body("{\"values\":[{\"index\":1,\"type\":\"URL\",\"data\":\"https://a.example/x\"},"
                + "{\"index\":100,\"type\":\"HS_ADMIN\",\"data\":{\"format\":\"admin\",\"value\":{\"handle\":\"" + admin + "\",\"index\":" + index
                + ",\"permissions\":\"011111110011\"}}}]}")
                .put("/api/handles/" + h).then().statusCode(200);
        return h;
    }

    @Test
    void sessionsProveSecretAndPublicKeysAndCarryTheIdentity() throws Exception {
        // CNRI's hashing clients key the MAC with the hash the HS_SECKEY value holds
        byte[] key = SecretKeys.hash("s3cret".getBytes(StandardCharsets.UTF_8)).getBytes(StandardCharsets.US_ASCII);
        byte[] cnonce = "client-nonce-123".getBytes(StandardCharsets.US_ASCII);
        OpenSession s = openSession();
        given().header("Authorization", "Handle sessionId=\"" + s.id() + "\"").get("/api/sessions/this").then().statusCode(200)
                .body("sessionId", equalTo(s.id())).body("authenticated", nullValue());
        // a wrong key: 401 with the session and CNRI's error; the session stays unauthenticated
        handleAuth(secretKeyAnswer(s, "300:" + user, "wrong".getBytes(StandardCharsets.US_ASCII), cnonce)).put("/api/sessions/this")
                .then().statusCode(401).body("sessionId", equalTo(s.id())).body("error", containsString("Identity not verified"));
        String h = PREFIX + "/session-" + System.nanoTime();
        String body = "{\"values\":[{\"index\":1,\"type\":\"URL\",\"data\":\"https://a.example/x\"}]}";
        handleAuth("sessionId=\"" + s.id() + "\"").contentType(ContentType.JSON).body(body).put("/api/handles/" + h)
                .then().statusCode(401).body("responseCode", equalTo(402));
        handleAuth(secretKeyAnswer(s, "300:" + user, key, cnonce)).put("/api/sessions/this")
                .then().statusCode(200).body("authenticated", equalTo(true)).body("id", equalTo("300:" + user));
        // later requests name the session only; the identity is the prefix admin group's member
        handleAuth("sessionId=\"" + s.id() + "\"").contentType(ContentType.JSON).body(body).put("/api/handles/" + h + "?overwrite=false")
                .then().statusCode(201).body("responseCode", equalTo(1));
        handleAuth("sessionId=" + s.id()).get("/api/sessions/this").then().statusCode(200).body("authenticated", equalTo(true));
        handleAuth("sessionId=\"" + s.id() + "\"").delete("/api/sessions/this").then().statusCode(204);
        handleAuth("sessionId=\"" + s.id() + "\"").delete("/api/handles/" + h).then().statusCode(401).body("responseCode", equalTo(401));
        handleAuth("sessionId=\"" + s.id() + "\"").put("/api/sessions/this").then().statusCode(403).body("responseCode", equalTo(501));
        given().put("/api/sessions/other").then().statusCode(403).body("responseCode", equalTo(2));
        handleAuth("sessionId=\"" + s.id() + "\"").post("/api/sessions").then().statusCode(400).body("responseCode", equalTo(2));
        given().get("/api/handles/" + h + "?index=1").then().statusCode(200);

        // the answer may also come with the API request itself, here with PBKDF2 (CNRI's doMac gives salt, iterations, length, MAC)
        OpenSession p = openSession();
        byte[] encoding = Util.doMac(Common.HASH_CODE_PBKDF2_HMAC_SHA1, Util.concat(p.nonce(), cnonce), key);
        ByteBuffer in = ByteBuffer.wrap(encoding);
        byte[] salt = new byte[in.getInt()];
        in.get(salt);
        int iterations = in.getInt();
        int length = in.getInt();
        byte[] mac = new byte[in.getInt()];
        in.get(mac);
        handleAuth("sessionId=\"" + p.id() + "\", id=\"300%3A" + user.replace("/", "%2F") + "\", type=HS_SECKEY, alg=PBKDF2-HMAC-SHA1, cnonce=\""
                + Base64.getEncoder().encodeToString(cnonce) + "\", salt=\"" + Base64.getEncoder().encodeToString(salt) + "\", iterations=" + iterations
                + ", length=" + length + ", signature=\"" + Base64.getEncoder().encodeToString(mac) + "\"")
                .delete("/api/handles/" + h).then().statusCode(200);
        given().get("/api/handles/" + h).then().statusCode(404);

        // HS_PUBKEY: an RSA key in Handle's encoding; the proven identity is 301:KEY-n, which the target's HS_ADMIN names
        KeyPairGenerator gen = KeyPairGenerator.getInstance("RSA");
        gen.initialize(2048);
        KeyPair pair = gen.generateKeyPair();
        String keyHolder = publicKeyHolder("KEY", 301, pair.getPublic());
        String target = administeredBy("pub", keyHolder, 301);
        OpenSession k = openSession();
        Signature signer = Signature.getInstance("SHA256withRSA");
        signer.initSign(pair.getPrivate());
        signer.update(k.nonce());
        signer.update(cnonce);
        String pubFields = "sessionId=\"" + k.id() + "\", id=\"0:" + keyHolder + "\", type=\"HS_PUBKEY\", alg=\"SHA-256\", cnonce=\""
                + Base64.getEncoder().encodeToString(cnonce) + "\", signature=\"";
        byte[] good = signer.sign();
        byte[] bad = good.clone();
        bad[5] ^= 1;
        handleAuth(pubFields + Base64.getEncoder().encodeToString(bad) + "\"").put("/api/sessions/this").then().statusCode(401)
                .body("error", containsString("not verified"));
        handleAuth(pubFields + Base64.getEncoder().encodeToString(good) + "\"").post("/api/sessions/this").then().statusCode(200)
                .body("id", equalTo("301:" + keyHolder));
        handleAuth("sessionId=\"" + k.id() + "\"").contentType(ContentType.JSON)
                .body("{\"values\":[{\"index\":1,\"type\":\"URL\",\"data\":\"https://b.example/y\"}]}")
                .put("/api/handles/" + target + "?index=1").then().statusCode(200);
        given().get("/api/handles/" + target + "?index=1").then().body("values[0].data.value", equalTo("https://b.example/y"));
        // the key's identity is not the prefix's admin: creating elsewhere is refused as insufficient permissions
        handleAuth("sessionId=\"" + k.id() + "\"").contentType(ContentType.JSON).body(body).put("/api/handles/" + PREFIX + "/no-" + System.nanoTime())
                .then().statusCode(403).body("responseCode", equalTo(400));
    }

    @Test
    void aClientCertificateWhoseKeyAnHsPubkeyHoldsAuthenticatesAsThatHandle() throws Exception {
        KeyPairGenerator gen = KeyPairGenerator.getInstance("RSA");
        gen.initialize(2048);
        KeyPair pair = gen.generateKeyPair();
        KeyPair stranger = gen.generateKeyPair();
        String keyHolder = publicKeyHolder("CERT", 300, pair.getPublic());
        String target = administeredBy("certified", keyHolder, 300);
        String change = "{\"values\":[{\"index\":1,\"type\":\"URL\",\"data\":\"https://b.example/y\"}]}";
        // CNRI's own certificate generator: a self-signed certificate whose UID is 300:<handle>
        HttpResponse<String> refused = certifiedPut(
                X509HSCertificateGenerator.generate(keyHolder, 300, stranger.getPublic(), stranger.getPrivate()),
                stranger.getPrivate(), "/api/handles/" + target + "?index=1", change);
        // no HS_PUBKEY holds its key, so the certificate is left to the grid identities, whose CAs never issued it
        assertEquals(403, refused.statusCode(), refused.body());
        assertEquals(true, refused.body().contains("\"responseCode\":401"), refused.body());
        given().get("/api/handles/" + target + "?index=1").then().body("values[0].data.value", equalTo("https://a.example/x"));
        HttpResponse<String> written = certifiedPut(
                X509HSCertificateGenerator.generate(keyHolder, 300, pair.getPublic(), pair.getPrivate()),
                pair.getPrivate(), "/api/handles/" + target + "?index=1", change);
        assertEquals(200, written.statusCode(), written.body());
        given().get("/api/handles/" + target + "?index=1").then().body("values[0].data.value", equalTo("https://b.example/y"));
        // a bare handle in the certificate (index 0) finds the key at any index
        HttpResponse<String> bare = certifiedPut(
                X509HSCertificateGenerator.generate(keyHolder, pair.getPublic(), pair.getPrivate()),
                pair.getPrivate(), "/api/handles/" + target + "?index=2", "{\"values\":[{\"index\":2,\"type\":\"EMAIL\",\"data\":\"a@b.example\"}]}");
        assertEquals(200, bare.statusCode(), bare.body());
    }

    private HttpResponse<String> certifiedPut(X509Certificate cert, PrivateKey key,
                                                            String path, String body) throws Exception {
        var credential = new GridCredential(new X509Certificate[]{cert}, key);
        var http = HttpClient.newBuilder().sslContext(ResolverHttps.clientTls(credential)).build();
        return http.send(HttpRequest.newBuilder(https.resolve(path)).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
