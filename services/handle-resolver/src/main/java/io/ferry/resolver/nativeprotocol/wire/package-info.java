/** The native Handle protocol's wire format: envelopes, message headers, values and keys, read and written as hdllib does. */
package io.ferry.resolver.nativeprotocol.wire;
