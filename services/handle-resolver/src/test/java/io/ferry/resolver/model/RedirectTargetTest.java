package io.ferry.resolver.model;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Where the proxy may redirect, and what urlappend may add. */
class RedirectTargetTest {

    @ParameterizedTest
    @ValueSource(strings = {"javascript:alert(1)", "JavaScript:alert(1)", "data:text/html,<script>alert(1)</script>",
            "vbscript:msgbox(1)", "//evil.example/", "/relative", "file:///etc/passwd", "mailto:a@b.example", "https:evil.example",
            "https:///nohost", "https://a.example/ x", "https://a.example/\r\nSet-Cookie:x", "https://a.example\\@evil.example/", ""})
    void onlyHttpHttpsAndFtpUrlsWithAHostAreTargets(String url) {
        assertFalse(RedirectTarget.allowed(url), url);
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://a.example", "https://a.example/f?x=1#y", "http://a.example:8080/", "ftp://ftp.a.example/pub/f"})
    void plainUrlsAreTargets(String url) {
        assertTrue(RedirectTarget.allowed(url), url);
    }

    @ParameterizedTest
    @ValueSource(strings = {"@evil.example", ".evil.example", ":8443", "evil", "%40evil.example"})
    void urlappendCannotChangeTheHostOfAUrlWithoutPath(String append) {
        assertThrows(RedirectTarget.BadAppend.class, () -> RedirectTarget.append("https://a.example", append), append);
    }

    @ParameterizedTest
    @ValueSource(strings = {"\r\nSet-Cookie: x=1", "a b", "\u0000", "\\evil.example", "\t", "\u0085"})
    void urlappendWithControlCharactersSpacesOrBackslashesIsRefused(String append) {
        assertThrows(RedirectTarget.BadAppend.class, () -> RedirectTarget.checkAppend(append), append);
    }

    @Test
    void urlappendExtendsThePathOrQuery() {
        assertEquals("https://a.example//evil", RedirectTarget.append("https://a.example", "//evil"));
        assertEquals("https://a.example?format=csv", RedirectTarget.append("https://a.example", "?format=csv"));
        assertEquals("https://a.example/f.csv", RedirectTarget.append("https://a.example/f", ".csv"));
        assertEquals("https://a.example/f@evil.example", RedirectTarget.append("https://a.example/f", "@evil.example"));
        assertEquals("https://a.example/f?x=1&y=2", RedirectTarget.append("https://a.example/f?x=1", "&y=2"));
        assertEquals("https://a.example/f/%C3%A9", RedirectTarget.append("https://a.example/f", "/\u00e9"));
        assertEquals("https://a.example/f", RedirectTarget.append("https://a.example/f", ""));
        assertThrows(RedirectTarget.BadAppend.class, () -> RedirectTarget.append("https://a.example/f", "/<script>"));
    }

    @Test
    void anAliasRedirectsToTheHandleOnThisProxyOnly() {
        assertEquals("/10.5072/a%20b%3Fc", RedirectTarget.aliasPath("10.5072/a b?c").orElseThrow());
        assertTrue(RedirectTarget.aliasPath("/evil.example/x").isEmpty());
        assertTrue(RedirectTarget.aliasPath("https://evil.example/x").isEmpty());
    }
}
