package io.ferry.resolver.nativeprotocol.wire;

/** A message that does not decode: answered with Handle.net's protocol error (4) where there is someone to answer. */
public class ProtocolException extends RuntimeException {

    public ProtocolException(String message) {
        super(message, null, false, false);
    }
}
