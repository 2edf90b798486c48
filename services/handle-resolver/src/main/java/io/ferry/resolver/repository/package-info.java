/** All SQL of the resolver: handles, prefixes, logical names, replicas and the at-risk counts. */
package io.ferry.resolver.repository;
