/** Who a caller is and what it may do to a handle: tokens, HTTP sessions, secret keys, client certificates, the handle's HS_ADMIN values, and the key challenges sessions and the native protocol share. */
package io.ferry.resolver.authentication;
