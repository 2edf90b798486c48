package io.ferry.dev.testca;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A WLCG-profile token issuer for the dev stack and tests, like an experiment's IAM: its JWKS served on
 * 127.0.0.1, tokens signed with its current key, and {@link #rotate()} to change keys while services run. Its
 * {@code /token} endpoint does RFC 8693 token exchange for the client {@link #allowExchange} names: a token it
 * signed and that has not expired is exchanged for a new one with the same subject, scope and audience (or those
 * asked for: {@code scope}, {@code audience}); asked with {@code offline_access} in the scope it also answers a refresh
 * token, which the {@code refresh_token} grant turns into access tokens for the scope and audience asked for, as
 * IAM does. The same client may use the {@code client_credentials} grant, as Rucio does for its FTS3 and storage
 * tokens: a token for the client itself, with the scope and audience asked for. {@code /.well-known/openid-configuration}
 * below {@link #base()} names the endpoints. A {@link #preset} token answers a request for what it was minted for. {@link #unavailable} makes it
 * answer 503 for a while; {@link #asked} lists every request.
 */
public final class TestTokenIssuer implements AutoCloseable {

    private final String issuer;
    private final HttpServer server;
    private final AtomicInteger jwksRequests = new AtomicInteger();
    private final AtomicInteger keyNumber = new AtomicInteger();
    private final AtomicInteger exchanges = new AtomicInteger();
    private volatile RSAKey key;
    private volatile String exchangeClient;
    private volatile String exchangeClientId;
    private volatile Duration exchangedLifetime = Duration.ofHours(1);
    /** "subject scope audience" → the token an exchange asking for exactly that answers ({@link #preset}). */
    private final java.util.Map<String, String> presets = new java.util.concurrent.ConcurrentHashMap<>();
    private final List<String> asked = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final java.util.Set<String> refused = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** refresh token → the subject it was granted to. */
    private final java.util.Map<String, String> refreshTokens = new java.util.concurrent.ConcurrentHashMap<>();
    private volatile boolean unavailable;

    private TestTokenIssuer(String issuer, HttpServer server) {
        this.issuer = issuer;
        this.server = server;
    }

    /** An issuer whose tokens say {@code iss: issuer}, serving {@code /jwks} on a free port of 127.0.0.1. */
    public static TestTokenIssuer start(String issuer) throws IOException {
        return start(issuer, null);
    }

    /** The same, signing with {@code key} (private, with a key id) until the first {@link #rotate()}; null: a new key. */
    public static TestTokenIssuer start(String issuer, RSAKey key) throws IOException {
        return start(issuer, key, 0);
    }

    /** The same on {@code port} (0: a free one), for services whose settings name the issuer's endpoints before it starts. */
    public static TestTokenIssuer start(String issuer, RSAKey key, int port) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
        TestTokenIssuer t = new TestTokenIssuer(issuer, server);
        if (key == null) {
            t.rotate();
        } else {
            t.key = key;
        }
        server.createContext("/jwks", exchange -> {
            t.jwksRequests.incrementAndGet();
            byte[] body = new JWKSet(t.key.toPublicJWK()).toString(true).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/jwk-set+json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.createContext("/token", t::exchange);
        server.createContext("/.well-known/openid-configuration", exchange -> {
            try (exchange) {
                answer(exchange, 200, "{\"issuer\":\"" + t.issuer + "\",\"token_endpoint\":\"" + t.tokenEndpoint() + "\",\"jwks_uri\":\""
                        + t.jwks() + "\",\"grant_types_supported\":[\"client_credentials\",\"refresh_token\","
                        + "\"urn:ietf:params:oauth:grant-type:token-exchange\"]}");
            }
        });
        server.start();
        return t;
    }

    /** Token exchange is allowed to this client (HTTP Basic), handing out tokens valid for {@code lifetime}. */
    public void allowExchange(String clientId, String secret, Duration lifetime) {
        exchangeClient = "Basic " + java.util.Base64.getEncoder().encodeToString((clientId + ":" + secret).getBytes(StandardCharsets.UTF_8));
        exchangeClientId = clientId;
        exchangedLifetime = lifetime;
    }

    /** Where clients exchange tokens (RFC 8693). */
    public URI tokenEndpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/token");
    }

    /**
     * Mints now the token that an exchange of a {@code subject}'s token for exactly {@code scope} and {@code audience}
     * will answer, so that a storage stand-in can be told beforehand which tokens to accept.
     */
    public String preset(String subject, String scope, String audience, Duration lifetime) {
        String token = mint(wlcgClaims(subject, audience, scope, List.of(), lifetime).build());
        presets.put(subject + " " + scope + " " + audience, token);
        return token;
    }

    /** Exchanges of {@code subject}'s tokens are refused from now on (403 {@code access_denied}), as an IAM policy may. */
    public void refuseExchangesOf(String subject) {
        refused.add(subject);
    }

    /** While true, {@code /token} answers 503 {@code temporarily_unavailable} (after logging the request in {@link #asked}). */
    public void unavailable(boolean down) {
        unavailable = down;
    }

    /**
     * What each request asked for, in order: "grant subject scope audience", grant {@code exchange}, {@code client} or
     * {@code refresh}, subject who the presented token is of ("?" when unknown), scope or audience "null" when not given.
     */
    public List<String> asked() {
        return List.copyOf(asked);
    }

    /** How many tokens were handed out by exchange. */
    public int exchanges() {
        return exchanges.get();
    }

    private void exchange(com.sun.net.httpserver.HttpExchange exchange) throws IOException {
        try {
            String form = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            java.util.Map<String, String> p = new java.util.HashMap<>();
            for (String pair : form.split("&")) {
                String[] kv = pair.split("=", 2);
                if (kv.length == 2) {
                    p.put(java.net.URLDecoder.decode(kv[0], StandardCharsets.UTF_8), java.net.URLDecoder.decode(kv[1], StandardCharsets.UTF_8));
                }
            }
            String client = exchangeClient;
            if (client == null || !client.equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
                answer(exchange, 401, "{\"error\":\"invalid_client\"}");
                return;
            }
            String grant = p.get("grant_type");
            String subjectName;
            String grantedScope;
            String grantedAudience;
            if ("client_credentials".equals(grant)) {
                subjectName = exchangeClientId;
                asked.add("client " + subjectName + " " + p.get("scope") + " " + p.get("audience"));
                grantedScope = p.get("scope");
                grantedAudience = p.get("audience");
            } else if ("refresh_token".equals(grant)) {
                subjectName = p.get("refresh_token") == null ? null : refreshTokens.get(p.get("refresh_token"));
                asked.add("refresh " + (subjectName == null ? "?" : subjectName) + " " + p.get("scope") + " " + p.get("audience"));
                if (subjectName == null) {
                    answer(exchange, 400, "{\"error\":\"invalid_grant\",\"error_description\":\"unknown refresh token\"}");
                    return;
                }
                grantedScope = p.get("scope");
                grantedAudience = p.get("audience");
            } else if ("urn:ietf:params:oauth:grant-type:token-exchange".equals(grant)
                    && "urn:ietf:params:oauth:token-type:access_token".equals(p.get("subject_token_type")) && p.get("subject_token") != null) {
                JWTClaimsSet subject;
                try {
                    SignedJWT jwt = SignedJWT.parse(p.get("subject_token"));
                    if (!jwt.verify(new com.nimbusds.jose.crypto.RSASSAVerifier(key.toRSAPublicKey()))) {
                        throw new IllegalArgumentException("not signed by this issuer's current key");
                    }
                    subject = jwt.getJWTClaimsSet();
                    if (subject.getExpirationTime().before(new Date())) {
                        throw new IllegalArgumentException("expired");
                    }
                } catch (Exception e) {
                    asked.add("exchange ? " + p.get("scope") + " " + p.get("audience"));
                    answer(exchange, 400, "{\"error\":\"invalid_grant\"}");
                    return;
                }
                subjectName = subject.getSubject();
                asked.add("exchange " + subjectName + " " + p.get("scope") + " " + p.get("audience"));
                grantedScope = p.getOrDefault("scope", (String) subject.getClaim("scope"));
                grantedAudience = p.getOrDefault("audience", subject.getAudience().isEmpty() ? null : subject.getAudience().get(0));
            } else {
                answer(exchange, 400, "{\"error\":\"unsupported_grant_type\"}");
                return;
            }
            if (unavailable) {
                answer(exchange, 503, "{\"error\":\"temporarily_unavailable\"}");
                return;
            }
            if (refused.contains(subjectName)) {
                answer(exchange, 403, "{\"error\":\"access_denied\",\"error_description\":\"token exchange is not allowed for this user\"}");
                return;
            }
            String refresh = null;
            if ("urn:ietf:params:oauth:grant-type:token-exchange".equals(grant) && grantedScope != null && List.of(grantedScope.split(" ")).contains("offline_access")) {
                refresh = UUID.randomUUID().toString();
                refreshTokens.put(refresh, subjectName);
            }
            String token = presets.get(subjectName + " " + grantedScope + " " + grantedAudience);
            if (token == null) {
                token = mint(wlcgClaims(subjectName, grantedAudience, grantedScope, List.of(), exchangedLifetime).build());
            }
            exchanges.incrementAndGet();
            answer(exchange, 200, "{\"access_token\":\"" + token + "\",\"issued_token_type\":\"urn:ietf:params:oauth:token-type:access_token\","
                    + (refresh == null ? "" : "\"refresh_token\":\"" + refresh + "\",")
                    + "\"token_type\":\"Bearer\",\"expires_in\":" + exchangedLifetime.toSeconds() + "}");
        } finally {
            exchange.close();
        }
    }

    private static void answer(com.sun.net.httpserver.HttpExchange exchange, int status, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, body.length);
        exchange.getResponseBody().write(body);
    }

    public String issuer() {
        return issuer;
    }

    /** Its HTTP base, below which {@code .well-known/openid-configuration} is served (OIDC discovery). */
    public String base() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/";
    }

    /** Where services fetch its keys ({@code ferry.identity.issuers.<name>.jwks}). */
    public URI jwks() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/jwks");
    }

    /** How often the key set was fetched. */
    public int jwksRequests() {
        return jwksRequests.get();
    }

    /** Replaces the signing key with a new one under a new key id, which the JWKS serves alone from now on. */
    public synchronized String rotate() {
        try {
            key = new RSAKeyGenerator(2048).keyID("key-" + keyNumber.incrementAndGet()).generate();
            return key.getKeyID();
        } catch (JOSEException e) {
            throw new IllegalStateException("cannot make an RSA key", e);
        }
    }

    /**
     * WLCG Common JWT Profile claims: {@code wlcg.ver}, {@code sub}, {@code aud}, space-separated {@code scope},
     * {@code wlcg.groups}, valid from now for {@code lifetime} (negative: already expired).
     */
    public JWTClaimsSet.Builder wlcgClaims(String subject, String audience, String scope, List<String> groups, Duration lifetime) {
        Instant now = Instant.now();
        Instant exp = now.plus(lifetime);
        Instant iat = lifetime.isNegative() ? exp.minus(Duration.ofMinutes(20)) : now;
        return new JWTClaimsSet.Builder().issuer(issuer).subject(subject).audience(audience).claim("wlcg.ver", "1.0")
                .claim("scope", scope).claim("wlcg.groups", groups).jwtID(UUID.randomUUID().toString())
                .issueTime(Date.from(iat)).notBeforeTime(Date.from(iat)).expirationTime(Date.from(exp));
    }

    /** {@code claims} signed (RS256) with the current key, its key id in the header. */
    public String mint(JWTClaimsSet claims) {
        return sign(key, key.getKeyID(), claims);
    }

    /** {@code claims} signed (RS256) with {@code signing}, naming {@code kid} (null: none) in the header. */
    public static String sign(RSAKey signing, String kid, JWTClaimsSet claims) {
        try {
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(kid)
                    .type(JOSEObjectType.JWT).build(), claims);
            jwt.sign(new RSASSASigner(signing));
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException("cannot sign a token", e);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
