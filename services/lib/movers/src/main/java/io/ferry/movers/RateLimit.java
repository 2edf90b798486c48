package io.ferry.movers;

import java.io.IOException;

/**
 * What a streamed copy asks before its bytes go on: a cap on the average rate that may be shared with other copies
 * (a job's, a link's). {@link #NONE} never waits.
 */
public interface RateLimit {

    /** Lets {@code bytes} pass, waiting first if they would exceed the rate; between waits {@code stillWanted} may end the copy. */
    void acquire(long bytes, StillWanted stillWanted) throws IOException;

    /** Checked at least once a second while a copy waits: throws once the copy was stopped. */
    interface StillWanted {
        void check() throws IOException;
    }

    RateLimit NONE = (bytes, stillWanted) -> {
    };

    /** Both limits, each waited for in turn: the copy goes no faster than the slower. */
    static RateLimit both(RateLimit first, RateLimit second) {
        if (first == NONE) {
            return second;
        }
        if (second == NONE) {
            return first;
        }
        return (bytes, stillWanted) -> {
            first.acquire(bytes, stillWanted);
            second.acquire(bytes, stillWanted);
        };
    }
}
