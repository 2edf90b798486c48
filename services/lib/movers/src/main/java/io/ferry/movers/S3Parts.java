package io.ferry.movers;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;

/**
 * How an S3Access's uploads send their parts: {@code size} bytes each, at most {@code inFlight} at once per upload on
 * {@code pool}'s threads, and {@code spareBuffers}, shared by all uploads, the part buffers they may hold beyond the
 * one each fills. A part buffer is a heap array of {@code size} bytes; an upload that gets no spare buffer sends its
 * parts one after the other from the buffer it has, so the memory of all uploads together stays within one buffer
 * per upload plus the spare ones.
 */
record S3Parts(int size, int inFlight, ExecutorService pool, Semaphore spareBuffers) {
}
