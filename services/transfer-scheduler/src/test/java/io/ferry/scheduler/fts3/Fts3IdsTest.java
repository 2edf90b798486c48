package io.ferry.scheduler.fts3;

import org.junit.jupiter.api.Test;

import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The ids must be the ones fts-rest computes; the expected values come from Python's uuid.uuid5. */
class Fts3IdsTest {

    @Test
    void uuid5MatchesRfc4122() {
        UUID dns = UUID.fromString("6ba7b810-9dad-11d1-80b4-00c04fd430c8");
        assertEquals(UUID.fromString("886313e1-3b8a-5372-9b90-0c9aee199e5d"), Fts3Ids.uuid5(dns, "python.org"));
    }

    @Test
    void voIdsAreThoseOfFtsRest() {
        assertEquals("a884b056-0359-5c31-af8e-e25b2d364632", Fts3Ids.voId("atlas").toString());
        assertEquals("d5bdc1ae-600f-58dd-a94f-5c16b07974fd", Fts3Ids.voId("cms").toString());
    }
}
