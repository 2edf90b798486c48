package io.ferry.cli.transfer;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** {@code --max-rate} goes into every part's params as given (the scheduler reads and bounds it), and nowhere without it. */
class MaxRateOptionTest {

    @Test
    void everyPartOfASplitListCarriesTheCapAsGiven() {
        List<ObjectNode> files = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            files.add(TransferList.file("s" + i, "d" + i, null, null));
        }
        List<ObjectNode> bodies = new SubmitOptions(false, null, null, null, null, null, null, null, null, null, null, "50MB/s").bodies(files, 2);
        assertEquals(2, bodies.size());
        bodies.forEach(b -> assertEquals("50MB/s", b.get("params").get("max_rate").asText()));
        ObjectNode uncapped = new SubmitOptions(false, null, null, null, null, null, null, null, null, null, null).bodies(files, 10).get(0);
        assertFalse(uncapped.get("params").has("max_rate"));
    }
}
