package io.ferry.movers;

import java.net.URI;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Destination collections this replica created or found existing, so the prepare phase does not send a MKCOL for every
 * file of a job that writes a thousand files into one directory. A hint, never the truth: a collection removed behind
 * Ferry's back shows as a PUT answered 409, after which the mover forgets it and creates it again.
 */
final class KnownCollections {

    /** Beyond this many, start over rather than track ages: a few MKCOLs again cost less than the bookkeeping. */
    static final int LIMIT = 65_536;

    private final Set<String> known = ConcurrentHashMap.newKeySet();

    boolean contains(URI collection) {
        return known.contains(collection.toString());
    }

    void add(URI collection) {
        if (known.size() >= LIMIT) {
            known.clear();
        }
        known.add(collection.toString());
    }

    void forget(List<URI> collections) {
        for (URI c : collections) {
            known.remove(c.toString());
        }
    }
}
