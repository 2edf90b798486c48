/** Handle.net's handle operations: resolve, create, modify, delete and list handles; home prefixes; tombstone data objects. */
package io.ferry.resolver.handles;
