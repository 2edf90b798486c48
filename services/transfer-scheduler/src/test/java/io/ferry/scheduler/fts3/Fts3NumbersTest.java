package io.ferry.scheduler.fts3;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class Fts3NumbersTest {

    private final ObjectMapper json = new ObjectMapper();

    @Test
    void aNumberWithoutAFractionIsItsDigitsAndNothingElseIs() throws Exception {
        assertEquals("254", Fts3Numbers.wholeNumberText(json.readTree("254.0")));
        assertEquals("5", Fts3Numbers.wholeNumberText(json.readTree("5")));
        assertEquals("-3", Fts3Numbers.wholeNumberText(json.readTree("-3.0")));
        assertNull(Fts3Numbers.wholeNumberText(json.readTree("4.5")));
        assertNull(Fts3Numbers.wholeNumberText(json.readTree("\"5\"")));
        assertNull(Fts3Numbers.wholeNumberText(json.readTree("1e30")));
        assertNull(Fts3Numbers.wholeNumberText(null));
    }
}
