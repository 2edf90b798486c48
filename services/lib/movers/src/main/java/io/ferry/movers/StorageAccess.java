package io.ferry.movers;

import java.net.URI;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.Set;

/**
 * One storage protocol's operations on single files: what a copy streamed through the mover needs from each side when
 * the two sides speak different protocols (root → davs, s3 → davs, davs → s3), and what a protocol's own mover builds
 * on. URLs are canonical storage URLs (the engine confines them below their SE's base); {@code credential} null means
 * the mover's own identity toward the SE. Failures are {@link MoverException}s with Ferry's stable codes and the
 * protocol's own text in the message; {@code phase} names the phase that asked ("prepare", "transfer").
 * Implementations are shared by every copy of the replica and keep their connections between files.
 */
public interface StorageAccess {

    /** The URL schemes this access speaks (lower case), e.g. root and roots. */
    Set<String> schemes();

    /**
     * The file's size and, when the storage has one, its checksum in {@code algorithm} (else null; {@code algorithm}
     * null: none asked for, which spares a server that computes checksums on demand); {@link SourceStat#ranges()}
     * true when reads may be split into parallel ranges. SOURCE_NOT_FOUND when there is no such file.
     */
    SourceStat stat(URI url, ChecksumAlgorithm algorithm, StorageCredential credential, String phase) throws MoverException;

    /** Whether a file is at {@code url}. */
    boolean exists(URI url, StorageCredential credential, String phase) throws MoverException;

    /** The file's bytes from its start; the channel is closed by the caller. */
    ReadableByteChannel read(URI url, StorageCredential credential, String phase) throws MoverException;

    /**
     * Creates (or replaces) the file at {@code url}, {@code size} bytes long (-1 when not known), written in order.
     * The data counts only once {@link Upload#commit()} returned; closing an upload that was not committed abandons it
     * and leaves no file behind where the protocol allows (an S3 multipart upload is aborted).
     */
    Upload write(URI url, long size, StorageCredential credential, String phase) throws MoverException;

    /** The directories above {@code url}, below the SE's {@code base}, created where the protocol has directories. */
    void makeParents(URI base, URI url, StorageCredential credential, String phase) throws MoverException;

    /** Removes the file; one that is not there is no failure. */
    void delete(URI url, StorageCredential credential, String phase) throws MoverException;

    /** A file being written. */
    interface Upload extends WritableByteChannel {

        /** Makes the written bytes the file; after it, {@link #close()} does nothing more. */
        void commit() throws MoverException;
    }
}
