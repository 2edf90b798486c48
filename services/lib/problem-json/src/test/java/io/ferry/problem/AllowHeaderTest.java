package io.ferry.problem;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class AllowHeaderTest {

    private static final String DOCUMENT = """
            {"openapi":"3.1.0","paths":{
              "/jobs":{"get":{},"post":{}},
              "/jobs/{id}":{"get":{},"delete":{}},
              "/jobs/{id}/files":{"get":{}},
              "/api/handles/{prefix}/{suffix}":{"put":{}},
              "/api/handles/{handle}":{"get":{}},
              "/api/handles/{prefix}":{"put":{}},
              "/whoami":{"get":{}},
              "/hosts/import":{"post":{}},
              "/hosts/{name}":{"get":{},"put":{}},
              "/{prefix}/{suffix}":{"get":{}}}}""";

    @Test
    void aPathGetsTheMethodsOfItsTemplateWithHeadAndOptions() throws Exception {
        List<AllowHeader.PathMethods> paths = AllowHeader.parse(DOCUMENT.getBytes(StandardCharsets.UTF_8));

        assertEquals("GET, POST, OPTIONS, HEAD", AllowHeader.allowFor(paths, "/jobs"));
        assertEquals("GET, POST, OPTIONS, HEAD", AllowHeader.allowFor(paths, "//jobs/"));
        assertEquals("GET, DELETE, OPTIONS, HEAD", AllowHeader.allowFor(paths, "/jobs/0f3a"));
        // The one-segment template wins over a parameter that could span segments.
        assertEquals("GET, OPTIONS, HEAD", AllowHeader.allowFor(paths, "/jobs/0f3a/files"));
        // A handle's suffix may hold slashes.
        assertEquals("PUT, OPTIONS", AllowHeader.allowFor(paths, "/api/handles/21.T1/a/b/c"));
        // Two templates naming the same path: the methods of both.
        assertEquals("GET, PUT, OPTIONS, HEAD", AllowHeader.allowFor(paths, "/api/handles/21.T1"));
        // A literal segment wins over a parameter.
        assertEquals("POST, OPTIONS", AllowHeader.allowFor(paths, "/hosts/import"));
        assertEquals("GET, PUT, OPTIONS, HEAD", AllowHeader.allowFor(paths, "/hosts/h1"));
        assertEquals("GET, OPTIONS, HEAD", AllowHeader.allowFor(paths, "/21.T1/abc"));
        assertNull(AllowHeader.allowFor(paths, "/nothing"));
    }
}
