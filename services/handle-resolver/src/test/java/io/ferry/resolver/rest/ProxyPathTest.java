package io.ferry.resolver.rest;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The proxy route's hand-written path match says what ProxyResource's path expression says, for every path. */
class ProxyPathTest {

    static final Pattern PROXY = Pattern.compile(CachedResolutionRoutes.PROXY);

    @Test
    void matchesExactlyWhatTheExpressionMatches() {
        List<String> chosen = List.of("/10.5072/x", "/20.500.12345/abc/def", "/0/a", "/1/", "/1", "/a1/x", "/10./x", "/10..5/x",
                "/10.5.6/x", "/10.5_6/x", "//x", "/10.5072/x\ny", "/10.5072/\u2028", "/10.5072/%41", "/api/handles/10.5072/x", "/q/health/x",
                "", "/", "/9a.B7/ü", "/10.5072/x/../y", "/1.a/..");
        for (String path : chosen) {
            assertEquals(PROXY.matcher(path).matches(), CachedResolutionRoutes.proxyPath(path), path);
        }
        // and for random paths over the characters that matter
        String alphabet = "/.0aZ9-_%\n\u2028x";
        Random random = new Random(7);
        for (int i = 0; i < 200_000; i++) {
            StringBuilder path = new StringBuilder();
            for (int n = random.nextInt(9); n >= 0; n--) {
                path.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String p = (random.nextBoolean() ? "/" : "") + path;
            assertEquals(PROXY.matcher(p).matches(), CachedResolutionRoutes.proxyPath(p), p);
        }
    }
}
