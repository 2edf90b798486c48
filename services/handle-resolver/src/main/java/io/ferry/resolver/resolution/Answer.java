package io.ferry.resolver.resolution;

import io.ferry.resolver.api.HandleResponse;

/** A resolution: the response body, its HTTP status and how long it may be cached. */
public record Answer(int status, HandleResponse body, long ttlSeconds) {
}
