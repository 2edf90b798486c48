package io.ferry.scheduler.storage;

import io.ferry.storageurl.StorageUrl;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.ferry.scheduler.storage.StorageAccess.Operation.READ;
import static io.ferry.scheduler.storage.StorageAccess.Operation.WRITE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** SE rights decided on canonical URLs: segment-wise prefixes, per VO and operation, closed unless granted. */
class StorageAccessTest {

    static final StorageUrl BASE = StorageUrl.parse("https://se.example/store");
    static final StorageAccess RULES = new StorageAccess(false, List.of(
            new StorageAccess.Rule("atlas", true, true, "/atlas/"), new StorageAccess.Rule("cms", true, false, null)));

    static boolean may(StorageAccess a, String vo, StorageAccess.Operation op, String url) {
        return a.allows(vo, op, StorageUrl.parse(url), BASE);
    }

    @Test
    void rightsPreparedAtABaseAnswerEveryUrlAsTheSingleCheckDoes() {
        StorageAccess.AtBase at = RULES.at(BASE);
        for (String vo : new String[]{"atlas", "cms", "lhcb"}) {
            for (StorageAccess.Operation op : StorageAccess.Operation.values()) {
                for (String url : List.of("https://se.example/store/atlas/x", "https://se.example/store/atlas2/x", "https://se.example/store/cms/x",
                        "https://se.example/store/atlas", "https://other.example/store/atlas/x")) {
                    assertEquals(may(RULES, vo, op, url), at.allows(vo, op, StorageUrl.parse(url)), vo + " " + op + " " + url);
                }
            }
        }
        assertFalse(at.allows("atlas", READ, StorageUrl.parse("https://se.example/store/cms/x")), "the rule's place, once resolved, stays its own");
        assertTrue(at.allows("atlas", READ, StorageUrl.parse("https://se.example/store/atlas/y")));
    }

    @Test
    void aRuleGrantsItsVoItsOperationsBelowItsPrefixOnly() {
        assertTrue(may(RULES, "atlas", WRITE, "https://se.example/store/atlas/x"));
        assertTrue(may(RULES, "atlas", WRITE, "https://SE.example:443/store//%61tlas/sub/x"), "decoded and canonical");
        assertFalse(may(RULES, "atlas", WRITE, "https://se.example/store/atlas2/x"), "segment-wise, not by text");
        assertFalse(may(RULES, "atlas", WRITE, "https://se.example/store/atlas"), "the prefix itself is no file below it");
        assertFalse(may(RULES, "atlas", READ, "https://se.example/store/cms/x"));
        assertTrue(may(RULES, "cms", READ, "https://se.example/store/atlas/x"), "no path: the whole SE");
        assertFalse(may(RULES, "cms", WRITE, "https://se.example/store/cms/x"), "read only");
        assertFalse(may(RULES, "lhcb", READ, "https://se.example/store/atlas/x"));
        assertFalse(may(RULES, null, READ, "https://se.example/store/atlas/x"));
        assertFalse(may(RULES, "atlas", WRITE, "https://other.example/store/atlas/x"), "not below the base");
    }

    @Test
    void closedServesNobodyAndOpenServesEveryoneBelowTheBase() {
        assertFalse(may(StorageAccess.CLOSED, "atlas", READ, "https://se.example/store/x"));
        assertFalse(may(new StorageAccess(false, null), "atlas", READ, "https://se.example/store/x"));
        StorageAccess open = new StorageAccess(true, List.of());
        assertTrue(may(open, "anyone", WRITE, "https://se.example/store/x"));
        assertFalse(may(open, "anyone", WRITE, "https://se.example/elsewhere/x"));
    }

    @Test
    void theSeWithTheLongestBaseAUrlLiesBelowIsItsSe() {
        Map<String, Map<String, String>> ses = Map.of("WHOLE", Map.of("https", "https://se.example/store"),
                "PART", Map.of("https", "https://se.example/store/atlas", "file", "file:///data/atlas"),
                "BROKEN", Map.of("https", "not a url"));
        assertEquals("PART", EndpointMatcher.match(StorageUrl.parse("https://se.example/store/atlas/x"), ses.keySet(), ses::get, n -> n).orElseThrow().se());
        assertEquals("WHOLE", EndpointMatcher.match(StorageUrl.parse("https://se.example/store/atlas2/x"), ses.keySet(), ses::get, n -> n).orElseThrow().se());
        assertTrue(EndpointMatcher.match(StorageUrl.parse("http://se.example/store/atlas/x"), ses.keySet(), ses::get, n -> n).isEmpty(), "scheme");
        assertEquals("PART", EndpointMatcher.match(StorageUrl.parse("file:///data/atlas/x"), ses.keySet(), ses::get, n -> n).orElseThrow().se());
    }

    @Test
    void aTieBetweenEqualBasesGoesToTheSeWhoseNameSortsFirstWhateverTheOrder() {
        Map<String, Map<String, String>> ses = Map.of("OLD", Map.of("https", "https://h/data"), "ATLAS", Map.of("https", "https://h/data"));
        StorageUrl url = StorageUrl.parse("https://h/data/atlas/x");
        assertEquals("ATLAS", EndpointMatcher.match(url, List.of("OLD", "ATLAS"), ses::get, n -> n).orElseThrow().se());
        assertEquals("ATLAS", EndpointMatcher.match(url, List.of("ATLAS", "OLD"), ses::get, n -> n).orElseThrow().se());
    }
}
