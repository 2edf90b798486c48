package io.ferry.servicetoken;

import io.smallrye.config.EnvConfigSource;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import jakarta.ws.rs.core.MultivaluedHashMap;
import jakarta.ws.rs.core.MultivaluedMap;
import org.eclipse.microprofile.config.spi.ConfigSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ServiceTokenHeadersTest {

    private static MultivaluedMap<String, String> headersWith(Optional<String> token) {
        MultivaluedMap<String, String> incoming = new MultivaluedHashMap<>();
        incoming.putSingle("Authorization", "Bearer the-end-users-token");
        return new ServiceTokenHeaders(token).update(incoming, new MultivaluedHashMap<>());
    }

    @Test
    void callsCarryTheServicesOwnTokenNotTheUsers() {
        assertEquals(List.of("Bearer service-token"), headersWith(Optional.of("service-token")).get("Authorization"));
    }

    @Test
    void withoutATokenNoAuthorizationIsSent() {
        assertTrue(headersWith(Optional.empty()).isEmpty());
        assertTrue(headersWith(Optional.of(" ")).isEmpty());
    }

    /** The module's own defaults, as Quarkus reads them, plus {@code source}. */
    private static Optional<String> tokenFrom(ConfigSource source) throws java.io.IOException {
        SmallRyeConfig config = new SmallRyeConfigBuilder().addDefaultInterceptors()
                .withSources(new PropertiesConfigSource(ServiceTokenHeadersTest.class.getResource("/META-INF/microprofile-config.properties"), 100))
                .withSources(source).build();
        return config.getOptionalValue(ServiceTokenHeaders.TOKEN_KEY, String.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"scheduler", "profiles", "resolver"})
    void eachServicesOwnKeyStillWorks(String prefix) throws Exception {
        assertEquals(Optional.of("t-" + prefix), tokenFrom(new PropertiesConfigSource(
                Map.of("ferry." + prefix + ".service-token", "t-" + prefix), "test", 250)));
        assertEquals(Optional.of("e-" + prefix), tokenFrom(new EnvConfigSource(
                Map.of("FERRY_" + prefix.toUpperCase() + "_SERVICE_TOKEN", "e-" + prefix), 300)));
    }

    @Test
    void theCommonKeyWinsAndNoKeyMeansNoToken() throws Exception {
        assertEquals(Optional.of("common"), tokenFrom(new EnvConfigSource(
                Map.of("FERRY_SERVICE_TOKEN", "common", "FERRY_RESOLVER_SERVICE_TOKEN", "old"), 300)));
        assertEquals(Optional.empty(), tokenFrom(new PropertiesConfigSource(Map.of(), "empty", 250)));
    }
}
