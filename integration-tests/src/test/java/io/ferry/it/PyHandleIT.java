package io.ferry.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ferry.dev.DevTokens;
import io.ferry.stack.LocalStack;
import io.ferry.stack.ServiceSpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * EUDAT's pyhandle (PyPI's, unmodified, from the {@link ClientsVenv};
 * {@code RESTHandleClient.instantiate_with_username_and_password}) writes through the packaged resolver as it writes to
 * CNRI's server: HTTP Basic with {@code 300:<prefix>/USER01} and the secret key in that handle's HS_SECKEY, the user an
 * admin of the prefix through the HS_VLIST group {@code 200:0.NA/<prefix>} that the handles pyhandle creates name in
 * their HS_ADMIN. A wrong key is refused and writes nothing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PyHandleIT {

    private static final String PREFIX = "20.500.4242";
    private static final String USER = PREFIX + "/USER01";
    private static final String KEY = "pw-for-user01";
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final ObjectMapper JSON = new ObjectMapper();

    private ClientsVenv venv;
    private LocalStack stack;
    private String resolver;

    @BeforeAll
    void start() throws Exception {
        venv = ClientsVenv.require("pyhandle.client.resthandleclient");
        stack = ItStacks.start("pyhandle-it", Map.of(), List.of(ServiceSpec.RESOLVER));
        resolver = stack.service(ServiceSpec.RESOLVER).url();
        String admin = stack.tokens().mint(DevTokens.Claims.of("it", null, "handles:admin handles:write"));
        assertEquals(200, send("POST", "/api/prefixes/" + PREFIX, admin, "{}").statusCode());
        // The user handle: its secret key (readable by admins only) and its own HS_ADMIN, as hdl-admintool makes them.
        assertEquals(201, send("PUT", "/api/handles/" + USER + "?overwrite=false", admin, "{\"values\":["
                + "{\"index\":300,\"type\":\"HS_SECKEY\",\"data\":{\"format\":\"string\",\"value\":\"" + KEY + "\"},\"permissions\":\"1100\"},"
                + "{\"index\":100,\"type\":\"HS_ADMIN\",\"data\":{\"format\":\"admin\",\"value\":{\"handle\":\"0.NA/" + PREFIX
                + "\",\"index\":200,\"permissions\":\"011111110011\"}}}]}").statusCode());
        // The prefix's admin group, 200:0.NA/<prefix>, lists the user, and an HS_ADMIN of 0.NA/<prefix> grants it all.
        assertEquals(200, send("PUT", "/api/handles/0.NA/" + PREFIX + "?index=various", admin, "{\"values\":["
                + "{\"index\":200,\"type\":\"HS_VLIST\",\"data\":{\"format\":\"vlist\",\"value\":[{\"handle\":\"" + USER + "\",\"index\":300}]}},"
                + "{\"index\":101,\"type\":\"HS_ADMIN\",\"data\":{\"format\":\"admin\",\"value\":{\"handle\":\"0.NA/" + PREFIX
                + "\",\"index\":200,\"permissions\":\"111111111111\"}}}]}").statusCode());
    }

    @AfterAll
    void stop() throws Exception {
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    void pyhandleRegistersModifiesAndDeletesWithItsSecretKey() throws Exception {
        String handle = PREFIX + "/it-" + System.nanoTime();
        String program = """
                import json, sys
                from pyhandle.client.resthandleclient import RESTHandleClient
                url, user, key, handle = sys.argv[1:5]
                c = RESTHandleClient.instantiate_with_username_and_password(url, user, key)
                print('registered', c.register_handle(handle, 'https://data.example/one', checksum='adler32:0a1b2c3d', DESCRIPTION='run 7'))
                print('url', c.get_value_from_handle(handle, 'URL'))
                print('modified', c.modify_handle_value(handle, URL='https://data.example/two', EMAIL='ops@data.example'))
                print('url', c.get_value_from_handle(handle, 'URL'))
                print('email', c.get_value_from_handle(handle, 'EMAIL'))
                print('removed', c.delete_handle_value(handle, ['CHECKSUM', 'DESCRIPTION']))
                print('types', json.dumps(sorted(v['type'] for v in c.retrieve_handle_record_json(handle)['values'])))
                print('deleted', c.delete_handle(handle))
                print('after', c.retrieve_handle_record_json(handle))
                """;
        String out = python(program, resolver, "300:" + USER, KEY, handle);
        List<String> lines = out.lines().toList();
        assertTrue(lines.contains("registered " + handle), out);
        assertTrue(lines.contains("url https://data.example/one"), out);
        assertTrue(lines.contains("modified " + handle), out);
        assertTrue(lines.contains("url https://data.example/two"), out);
        assertTrue(lines.contains("email ops@data.example"), out);
        assertTrue(lines.contains("removed " + handle), out);
        assertTrue(lines.contains("types [\"EMAIL\", \"HS_ADMIN\", \"URL\"]"), out);
        assertTrue(lines.contains("deleted " + handle), out);
        assertTrue(lines.contains("after None"), out);
        assertEquals(404, send("GET", "/api/handles/" + handle, null, null).statusCode());
    }

    @Test
    void aWrongKeyIsRefusedAndWritesNothing() throws Exception {
        String handle = PREFIX + "/refused-" + System.nanoTime();
        String program = """
                import sys
                from pyhandle.client.resthandleclient import RESTHandleClient
                from pyhandle.handleexceptions import HandleAuthenticationError
                url, user, key, handle = sys.argv[1:5]
                c = RESTHandleClient.instantiate_with_username_and_password(url, user, key)
                try:
                    c.register_handle(handle, 'https://data.example/one')
                    print('registered')
                except HandleAuthenticationError as e:
                    print('refused')
                """;
        String out = python(program, resolver, "300:" + USER, "not-the-key", handle);
        assertTrue(out.lines().toList().contains("refused"), out);
        assertEquals(404, send("GET", "/api/handles/" + handle, null, null).statusCode());
        JsonNode answer = JSON.readTree(send("GET", "/api/handles/" + USER, null, null).body());
        assertTrue(answer.path("values").findValuesAsText("type").stream().noneMatch("HS_SECKEY"::equals), answer.toString());
    }

    private String python(String program, String... args) throws IOException, InterruptedException {
        List<String> argv = new ArrayList<>(List.of("-c", program));
        argv.addAll(List.of(args));
        Path output = Files.createTempFile("pyhandle", ".out");
        ProcessBuilder pb = venv.process(argv.toArray(String[]::new)).redirectErrorStream(true).redirectOutput(output.toFile());
        Process p = pb.start();
        p.getOutputStream().close();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("pyhandle did not finish within 120 s: " + Files.readString(output));
        }
        String printed = Files.readString(output);
        Files.delete(output);
        assertEquals(0, p.exitValue(), printed);
        return printed;
    }

    private HttpResponse<String> send(String method, String path, String token, String body) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(resolver + path)).timeout(Duration.ofSeconds(30))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
