/** The Handle.net/DOI proxy's decision for a handle: redirect, alias, values, gone or not found. */
package io.ferry.resolver.proxy;
