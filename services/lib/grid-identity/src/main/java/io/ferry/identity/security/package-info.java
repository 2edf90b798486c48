/** The Quarkus side: a bearer token or TLS client chain becomes a SecurityIdentity, a refusal a 401 problem. */
package io.ferry.identity.security;
