package io.ferry.resolver;

import com.sun.net.httpserver.HttpServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Serves {@code /endpoints} as transfer-scheduler would, and can be switched off, to test the resolver's
 * cached catalogue. The real scheduler is exercised in integration-tests.
 */
public class SchedulerStandIn implements QuarkusTestResourceLifecycleManager {

    static final AtomicReference<String> LAST_AUTHORIZATION = new AtomicReference<>();
    static volatile boolean up = true;
    private HttpServer server;

    @Override
    public Map<String, String> start() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/endpoints", exchange -> {
            LAST_AUTHORIZATION.set(exchange.getRequestHeaders().getFirst("Authorization"));
            byte[] body = ("[{\"name\":\"RAL-ECHO\",\"site\":\"RAL-LCG2\",\"baseUrls\":{\"https\":\"https://echo.ral.example/atlas\"},"
                    + "\"needsPrepare\":false,\"thirdPartyCopy\":true,\"inboundMaxActive\":50},"
                    + "{\"name\":\"CERN-EOS\",\"site\":\"CERN-PROD\",\"baseUrls\":{\"https\":\"https://eos.cern.example:443/eos\",\"root\":\"root://eos.cern.example//eos\"}},"
                    + "{\"name\":\"CERN-TAPE\",\"site\":\"CERN-PROD\",\"baseUrls\":{\"root\":\"root://tape.cern.example//castor\"}}]").getBytes(StandardCharsets.UTF_8);
            int status = up ? 200 : 503;
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, up ? body.length : -1);
            if (up) {
                exchange.getResponseBody().write(body);
            }
            exchange.close();
        });
        server.start();
        return Map.of("ferry.clients.scheduler-url", "http://127.0.0.1:" + server.getAddress().getPort(),
                "ferry.resolver.se-catalogue-refresh", "0s",
                "ferry.resolver.service-token", "resolver-service-token");
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop(0);
        }
    }
}
