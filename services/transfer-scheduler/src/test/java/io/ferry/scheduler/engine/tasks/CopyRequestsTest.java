package io.ferry.scheduler.engine.tasks;

import io.ferry.scheduler.storage.SchedulingInputs;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which copies an SE makes itself: the destination pulls where it speaks the source's protocol; a WebDAV source pushes to S3. */
class CopyRequestsTest {

    private static final URI DAVS = URI.create("davs://dav.example.org/data/f");
    private static final URI HTTPS = URI.create("https://dav.example.org/data/f");
    private static final URI S3 = URI.create("s3://s3.example.org/bkt/f");
    private static final URI S3S = URI.create("s3s://s3.example.org/bkt/f");
    private static final URI ROOT = URI.create("root://xrd.example.org//data/f");

    private static SchedulingInputs.Se se(boolean thirdPartyCopy) {
        return new SchedulingInputs.Se("SE", "SITE", Map.of(), false, 10, 10, thirdPartyCopy, null, true);
    }

    @Test
    void aTpcWebDavSourcePushesToS3() {
        assertTrue(CopyRequests.thirdParty(se(true), se(false), DAVS, S3S));
        assertTrue(CopyRequests.thirdParty(se(true), null, HTTPS, S3));
        assertFalse(CopyRequests.thirdParty(se(false), se(false), DAVS, S3S), "neither SE copies: streamed");
        assertFalse(CopyRequests.thirdParty(null, se(true), DAVS, S3S), "S3 pulls nothing");
    }

    @Test
    void aTpcSourcePushesNowhereElse() {
        assertFalse(CopyRequests.thirdParty(se(true), se(false), DAVS, HTTPS));
        assertFalse(CopyRequests.thirdParty(se(true), se(false), S3, DAVS));
        assertFalse(CopyRequests.thirdParty(se(true), se(false), ROOT, S3));
        assertFalse(CopyRequests.thirdParty(se(true), se(false), DAVS, ROOT));
    }

    @Test
    void theDestinationPullsAsBefore() {
        assertTrue(CopyRequests.thirdParty(se(false), se(true), DAVS, HTTPS));
        assertTrue(CopyRequests.thirdParty(null, se(true), S3S, DAVS));
        assertTrue(CopyRequests.thirdParty(se(false), se(true), ROOT, ROOT));
        assertFalse(CopyRequests.thirdParty(se(false), se(true), ROOT, DAVS));
        assertFalse(CopyRequests.thirdParty(se(true), null, DAVS, HTTPS));
    }
}
