package io.ferry.movers;

import java.net.URI;

/**
 * A mover that copies by third-party copy where it can and streams through Ferry otherwise: all but the transfer is
 * the streamed copy's (the source's stat, the destination's checks, link probes' files), whichever way the bytes go.
 */
public abstract class ThirdPartyOrStreamed implements Mover {

    /** The copy through Ferry between the two protocols. */
    protected final Mover streamed;

    protected ThirdPartyOrStreamed(Mover streamed) {
        this.streamed = streamed;
    }

    @Override
    public final SourceStat stat(URI source) throws MoverException {
        return streamed.stat(source);
    }

    @Override
    public final SourceStat stat(CopyRequest req) throws MoverException {
        return streamed.stat(req);
    }

    @Override
    public final String sourceChecksum(CopyRequest req) throws MoverException {
        return streamed.sourceChecksum(req);
    }

    @Override
    public final SourceStat destinationStat(CopyRequest req) throws MoverException {
        return streamed.destinationStat(req);
    }

    @Override
    public final SourceStat statDestination(CopyRequest req) throws MoverException {
        return streamed.statDestination(req);
    }

    @Override
    public final void prepareDestination(CopyRequest req) throws MoverException {
        streamed.prepareDestination(req);
    }

    @Override
    public final String create(URI target, URI base, long size, StorageCredential credential) throws MoverException {
        return streamed.create(target, base, size, credential);
    }

    @Override
    public final void remove(URI target, URI base, StorageCredential credential) throws MoverException {
        streamed.remove(target, base, credential);
    }
}
