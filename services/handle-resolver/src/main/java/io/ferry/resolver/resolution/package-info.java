/** What a stored handle resolves to: its JSON answer and the proxy's redirect, as pure functions the cache precomputes. */
package io.ferry.resolver.resolution;
