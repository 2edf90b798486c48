package io.ferry.movers;

/**
 * What a copy presents to its source and to its destination SE. A null side means the mover's own identity (its
 * configured TLS material, or nothing), which the engine uses only where the SE allows it.
 */
public record StorageCredentials(StorageCredential source, StorageCredential destination) {

    /** Both sides with the mover's own identity. */
    public static final StorageCredentials SERVICE = new StorageCredentials(null, null);
}
