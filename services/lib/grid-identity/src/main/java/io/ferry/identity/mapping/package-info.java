/** Configured rules that turn WLCG scopes, token groups and VOMS FQANs into Ferry's roles. */
package io.ferry.identity.mapping;
