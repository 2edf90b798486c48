/** The HTTP endpoints: Handle.net's JSON REST API, sessions, the proxy, replicas and storage elements. */
package io.ferry.resolver.rest;
