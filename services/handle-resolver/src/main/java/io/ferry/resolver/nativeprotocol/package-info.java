/** The native Handle protocol (RFC 3652, as CNRI's 9.x hdllib speaks it, sessions and signed answers included) over TCP and UDP, on the REST API's store and cache. */
package io.ferry.resolver.nativeprotocol;
