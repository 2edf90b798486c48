package io.ferry.profiles.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SelectorTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final Selector.Target WAN_IN = new Selector.Target("gridftp01.ral.example", "RAL-LCG2", "RAL-ECHO",
            Map.of("pool", "wan-in", "role", "disk-server"));

    static JsonNode json(String s) throws Exception {
        return JSON.readTree(s);
    }

    @Test
    void objectsAreAndListsAreOr() throws Exception {
        assertTrue(Selector.matches(json("{\"pool\":\"wan-in\",\"role\":\"disk-server\"}"), WAN_IN));
        assertFalse(Selector.matches(json("{\"pool\":\"wan-in\",\"role\":\"gateway\"}"), WAN_IN));
        assertTrue(Selector.matches(json("{\"pool\":[\"wan-out\",\"wan-in\"]}"), WAN_IN));
        assertTrue(Selector.matches(json("[{\"pool\":\"internal\"},{\"site\":\"RAL-LCG2\",\"name\":\"gridftp*\"}]"), WAN_IN));
        assertFalse(Selector.matches(json("[{\"pool\":\"internal\"},{\"site\":\"FNAL\"}]"), WAN_IN));
        assertTrue(Selector.matches(json("{\"role\":\"*\",\"storage_element\":\"RAL-ECHO\"}"), WAN_IN));
        assertFalse(Selector.matches(json("{\"rack\":\"*\"}"), WAN_IN));
        // nesting under a key groups an OR inside an AND
        assertTrue(Selector.matches(json("{\"role\":\"disk-server\",\"any\":[{\"pool\":\"wan-out\"},{\"pool\":\"wan-in\"}]}"), WAN_IN));
    }

    @Test
    void malformedSelectorsAreReportedWithTheirPath() throws Exception {
        assertEquals("match.pool", Selector.validate(json("{\"pool\":5}"), "match").get(0).field());
        assertEquals("match[1]", Selector.validate(json("[{\"pool\":\"a\"},\"b\"]"), "match").get(0).field());
        assertTrue(Selector.validate(json("{\"pool\":[\"a\",\"b\"]}"), "match").isEmpty());
    }
}
