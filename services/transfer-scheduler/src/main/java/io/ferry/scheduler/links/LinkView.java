package io.ferry.scheduler.links;


import java.time.OffsetDateTime;

/** A link's settings (max_rate: bytes per second, null without a cap) and the streams a file on it gets, with where that number came from. */
public record LinkView(String source_se, String dest_se, int min_active, int max_active, Integer nostreams,
                       String optimizer_mode, Long max_rate, OffsetDateTime updated_at, String updated_by, StreamAdvice.Streams streams) {

    static LinkView of(LinkConfig l, StreamAdvice.Streams streams) {
        return new LinkView(l.sourceSe, l.destSe, l.minActive, l.maxActive, l.nostreams, l.optimizerMode, l.maxRate, l.updatedAt, l.updatedBy, streams);
    }
}
